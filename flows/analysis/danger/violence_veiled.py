"""Threats said sideways: the outcome named instead of the act, "accidents", property."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule
from flows.analysis.danger.vocabulary import MODAL

RULES: tuple[Rule, ...] = (
    Rule(
        "violence.outcome_named",
        # Threats that name the outcome rather than the act.
        alternatives=(
            r"\bend up (?:in|at|on|under) (?:a |the )?(?:ditch|hospital|river|canal|morgue|grave|"
            r"body bag|boot|wheelchair|a&e|bottom of|ground)\b",
            r"\b(?:nobody|no one|no-one|they) (?:would|will|'ll|'d|wouldn'?t|won'?t) (?:ever |"
            r"even )?(?:find (?:you|your body|the body|her|him)|find what'?s left|know where "
            r"you)\b",
            r"\b(?:if|when) you (?:went|go|disappeared|disappear) missing\b",
            r"\b(?:you'?re|you are|you were|you'?ll be|he'?s|she'?s) lucky (?:that )?(?:i|he|"
            r"she) (?:only|didn'?t|did not|never|stopped)\b",
            r"\bhow close i came\b",
            r"\bwhat'?s coming to (?:you|him|her)\b",
            r"\bdon'?t make me (?:finish|hurt|do (?:it|this|something)|come (?:over|round|there|"
            r"and)|use|get (?:the|my)|lose it|snap)\b",
            r"\b(?:wants? to|better|had better|'d better|should|needs? to|ought to) watch "
            r"(?:yourself|himself|herself|themselves|your back|his back|her back|it)\b",
            r"\bmake sure (?:you|i|she|he|they) (?:can'?t|couldn'?t|won'?t|wouldn'?t|never|"
            r"don'?t|can never|will never) (?:\w+ )?(?:walk|leave|talk|breathe|run|speak|move|"
            r"get up|smile)\b",
            r"\bteach (?:you|him|her|them) a lesson\b",
            r"\bget (?:my|his|her) hands on (?:you|u|her|him)\b",
            r"\bwhat happens to (?:your|ur) (?:face|legs|kneecaps|teeth|head|car|house|flat)\b",
            r"\b(?:in|end up in) a wheelchair\b(?=[^\n]{0,40}\b(?:i'?m done|i'?ve finished|i "
            r"finish)\b)",
            r"\b(?:going to|gonna|gunna|will|'ll) get (?:seriously |badly |really )?(?:hurt|"
            r"killed)\b",
            r"\b(?:doors?|windows?) (?:all )?locked\s*\?",
            r"\block (?:your|ur) (?:doors?|windows?)(?: tonight)?\b",
            r"\bsleep tight\b(?=[^\n]{0,30}\block)",
            r"\b(?:you'?ll|you will|make you|he'?ll make you|i'?ll make you) wish (?:you|u) "
            r"(?:were|was|'d|had) (?:dead|never been born)\b",
            r"\b(?:held|holding|put|pressed|pushed) (?:a |the )?(?:pillow|cushion|hand|bag) "
            r"(?:over|on|against) (?:my|her|his|your) (?:face|mouth|nose|head)\b",
            r"\b(?:until|till|so) i (?:couldn'?t|could not|can'?t) breathe\b",
            r"^\W*watch (?:yourself|your back)\b",
            r"\bwatch yourself\b(?! on| in the| out)",
            rf"\b{MODAL}\s+(?:\w+\s+)?['\"]?(?:sort|sorting) (?:you|me|him|her|them) out\b",
            r"\b(?:anyone|anybody|someone|somebody) could (?:get in|break in|walk in|get to "
            r"(?:her|him|you|them))\b",
            r"\b(?:be a )?shame if (?:something|anything) (?:happened|were to happen)\b",
            r"\baccidents happen\b",
            r"\b(?:ought to|should|better|needs? to|wants? to) lock (?:that|the|her|his|your) "
            r"(?:\w+ )?(?:gate|door|window|doors|windows)\b",
            r"\b(?:gbh|abh|grievous bodily harm|actual bodily harm|domestic violence|(?:done|did|"
            r"served) time for (?:assault|hurting|hitting|battering|attacking|stabbing))\b",
            r"\b(?:convicted|arrested|charged|jailed|done|did time) (?:\w+ )?for (?:assault|"
            r"attacking|battery|wounding|stabbing)\b",
        ),
        matches=(
            "keep this up and you'll end up in a ditch",
            "nobody would find your body",
            "what if you went missing",
            "you're lucky I only smashed the phone",
            "you have no idea how close i came",
            "you'll get what's coming to you",
            "don't make me come over there",
            "you'd better watch yourself",
            "I'll make sure you can't walk",
            "someone needs to teach you a lesson",
            "wait till I get my hands on you",
            "remember what happens to your face",
            "you'll be in a wheelchair when i'm done",
            "you're going to get hurt",
            "doors all locked?",
            "lock your doors tonight",
            "sleep tight, hope the door's locked",
            "you'll wish you were dead",
            "he held a pillow over my face",
            "he squeezed until i couldn't breathe",
            "watch your back, mate",
            "watch yourself",
            "he'll sort you out",
            "anyone could get in",
            "be a shame if something happened",
            "accidents happen",
            "you ought to lock that gate",
            "he did time for assault",
            "he was arrested for assault",
        ),
        misses=(
            "mind the step and watch yourself on the ice",
            "I'll lock the door tonight",
        ),
    ),
    Rule(
        "violence.accident_foretold",
        # The outcome named instead of the act: "you'll be in a box", "an accident".
        alternatives=(
            r"\b(?:you'?ll|you will|you'?re going to|you are going to|you'?re gonna|he'?ll|"
            r"she'?ll|you could|you might|you'?d) (?:\w+ )?(?:be|end up|wind up|go) (?:in|under|"
            r"into) (?:a |the )?(?:box|coffin|body bag|ground|grave|morgue|wheelchair|ditch|"
            r"river|canal|boot of (?:a|my|his|the) car)\b",
            r"\b(?:you'?re|you are|you'?ll|you will|he'?s|she'?s) (?:going to |gonna )?(?:have|"
            r"meet|suffer) (?:a |an )?(?:little |nasty |terrible |tragic |horrible |unfortunate "
            r")?(?:accident|fall)\b(?=[^.!?\n]{0,20}\b(?:one of these days|one day|soon|sooner "
            r"or later|some ?day|before long|any day now|if you'?re not careful)\b)",
            r"\b(?:shame|pity|sad|terrible) if you (?:had|have|were to have|got in|ended up in|"
            r"met) (?:a |an )?(?:\w+ )?(?:accident|fall)\b",
            r"\bmake (?:it|this|that) look like (?:an? )?(?:accident|suicide|you did it)\b"
            r"(?![^.!?\n]{0,40}\b(?:film|movie|book|episode|plot)\b)",
            r"\bpeople (?:fall down (?:the )?stairs|have accidents|go missing|disappear)\b"
            r"(?=[^.!?\n]{0,20}\b(?:all the time|every day|you know|happens)\b)",
            r"\b(?:don'?t|do not|never) (?:think|assume|imagine|believe) (?:you'?re|you are|"
            r"you'?ll be|you will be) safe\b(?! from (?:my|the|his|her) (?:cooking|jokes|"
            r"singing))",
            r"\byou'?re not safe (?:anywhere|there|in there|from me)\b",
            r"\bnowhere (?:is|will be) safe\b",
            r"\b(?:should|better|had better|'d better|want to|might want to|start|keep) (?:start "
            r")?look(?:ing)? over (?:your|ur) shoulder\b",
            r"\b(?:i'?ve got|i have|i know|i'?ve still got) (?:people|mates|friends|lads|guys|"
            r"someone|somebody) (?:who|that)(?:'ll| will| would| can| could)(?: \w+)? (?:find|"
            r"sort|deal with|hurt|get|do|take care of|teach|visit|pay you|sort you|make|break|"
            r"find out)\b",
            r"\bwon'?t be the only (?:thing|one) (?:that )?(?:gets? |getting )?(?:slashed|"
            r"smashed|broken|burnt|burned|hurt|damaged|cut|stabbed|kicked in|done)\b",
            r"\b(?:slash|slashed|slashing|smash|smashed|smashing|torch|torched|key|keyed|brick|"
            r"bricked) (?:your|ur|his|her|their|my) (?:new )?(?:tyres|tires|car|windows?|"
            r"windscreen|van)\b",
            r"\byou'?ll see what happens\b",
            r"\b(?:fear|scared|afraid|frightened|terrified) (?:of )?what (?:he|she|they)(?:'ll| "
            r"will| would|'d| might| could) do (?:to me|to us|next|if)\b",
        ),
        matches=(
            "you'll end up in a box",
            "you're going to have an accident one of these days",
            "shame if you had an accident",
            "I'll make it look like an accident",
            "people go missing all the time",
            "don't think you're safe",
            "you're not safe anywhere",
            "nowhere is safe",
            "you'd better start looking over your shoulder",
            "I've got mates who will find you",
            "your car won't be the only thing that gets smashed",
            "I'll slash your tyres",
            "you'll see what happens",
            "I'm scared of what he'll do next",
        ),
        misses=(
            "make it look like an accident, like in the film",
            "don't think you're safe from my cooking",
        ),
    ),
    Rule(
        "violence.said_sideways",
        # Threats to property and person, said sideways.
        alternatives=(
            r"\bhope (?:your|ur) (?:brakes|tyres|tires|boiler|gas) (?:don'?t|doesn'?t|won'?t|"
            r"never) (?:fail|blow|explode|catch fire|leak)\b",
            r"\b(?:shame|pity) if (?:your (?:lovely |little |nice |new )?\w+|that (?:lovely |"
            r"little |nice |new )?\w+) (?:burned|burnt|caught fire|went up in flames|got "
            r"(?:burned|burnt|smashed|damaged|hurt|broken)|burned down|burnt down|had an "
            r"accident)\b",
            r"\b(?:shame|pity) if it (?:burned|burnt) down\b",
            r"\bnext time i see (?:you|u|him|her)\b[^.!?\n]{0,30}\b(?:not holding back|won'?t "
            r"hold back|you'?re (?:dead|finished|getting it)|watch out)\b",
            r"\b(?:even if|if) i (?:have|need) to (?:drag|carry|force) (?:you|u)\b",
            r"\b(?:i'?ll|i will|i'?d|i would|happy to|willing to|i don'?t mind|i'?ll gladly) "
            r"(?:gladly )?(?:do|serve) (?:time|life|a life sentence|a stretch|prison|jail) "
            r"(?:for (?:you|u|her|him|it|this)|over you)\b",
            r"\b(?:i know|i'?ve got|i have) (?:people|someone|somebody|blokes|lads) (?:who|"
            r"that)(?:'d| would| will|'ll) do (?:it|you|him|her) (?:for (?:a (?:hundred|grand|"
            r"few quid|tenner|score|fiver|bag)|\d+|cash)|in|over)\b",
            r"\b(?:set fire to|set light to|torch|petrol bomb|firebomb) (?:your|ur|his|her|their|"
            r"the) (?:car|house|flat|place|home|front door|door|van)\b",
            r"\bsay goodbye to (?:your|ur) (?:pretty |little |\w+ )?(?:face|teeth|legs|kneecaps|"
            r"looks)\b",
            r"\bi'?ll make sure of it\b[^\n]{0,60}\byou won'?t (?:be able to )?(?:walk|see|"
            r"talk|breathe|stand)\b",
        ),
        matches=(
            "hope your brakes don't fail",
            "shame if your lovely car got smashed",
            "shame if it burned down",
            "next time i see you, you're dead",
            "you're coming home even if i have to drag you",
            "I'd do time for you",
            "I know people who'd do it for a grand",
            "I'll set fire to your car",
            "say goodbye to your pretty face",
            "I'll make sure of it. you won't walk again",
        ),
        misses=(
            "hope your brakes don't squeak",
            "next time i see you we'll get coffee",
        ),
    ),
    Rule(
        "violence.run_over_or_burnt",
        alternatives=(
            r"\b(?:burn|torch|smash|set fire to|crash|blow up|petrol)\b[^.!?\n]{0,40}\b(?:and|"
            r"with) you (?:with it|in it|inside)\b",
            r"\b(?:remember|you know) what happened (?:the )?last time (?:you|u) (?:crossed me|"
            r"defied me|lied to me|disobeyed me|went behind my back|answered (?:me )?back|"
            r"embarrassed me|left me|blocked me|ignored me|tried (?:to leave|that|it))\b",
            r"\b(?:smashed|broke|brought|cracked) (?:a|the|his|her) \w+ (?:down )?(?:over|on|"
            r"against) (?:my|her|his) (?:head|face|back)\b",
            r"\brun (?:me|you|her|him|us) over\b",
            r"\b(?:drove|driving|drive|aimed the car) (?:at|towards|straight at) (?:me|us|her|"
            r"him)\b",
        ),
        matches=(
            "I'll burn the house down with you in it",
            "remember what happened last time you crossed me",
            "he smashed a plate over my head",
            "I'll run you over",
            "he drove at me",
        ),
        misses=(
            "I'll drive you to the station",
            "remember what happened last time you tried my lasagne",
        ),
    ),
)
