"""Self-harm's means, places and plans: pills, heights, trains, cars, a date chosen."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        "self_harm.overdose",
        alternatives=(r"\b(?:overdose|overdosed|overdosing|od'?ing)\b",),
        matches=("she took an overdose",),
        misses=("I overdosed on sugar by accident",),
        person="infer",
    ),
    Rule(
        "self_harm.means",
        alternatives=(
            r"\b(?:stockpil\w*|hoard\w*|saving up|swallow(?:ed|ing)?|downed) (?:a load of |loads "
            r"of |all (?:of )?|a bunch of |a handful of |\d+ )?(?:my |the |his |her )?(?:meds|"
            r"medication|pills|tablets|painkillers|paracetamol|sleeping pills)\b",
            r"\b(?:took|taken|take|taking) (?:a load of |loads of |all (?:of )?|a bunch of |a "
            r"handful of |\d+ |too many |a whole (?:box|packet|bottle) of |the whole (?:box|"
            r"packet|bottle) of )(?:my |the |his |her )?(?:meds|medication|pills|tablets|"
            r"painkillers|paracetamol|sleeping pills)\b",
            r"\b(?:hang|hanging|hanged) (?:myself|himself|herself)\b",
            r"\bnoose\b",
            r"\bslit (?:my|his|her) wrists\b",
            r"\b(?:step|stepping|jump|jumping|throw myself|walk|walking) in front of (?:a|the) "
            r"(?:train|bus|car|lorry|truck)\b",
        ),
        matches=(
            "she's been stockpiling her pills",
            "I took a load of tablets",
            "he tried to hang himself",
            "I found a noose",
            "she slit her wrists",
            "I want to step in front of a train",
        ),
        misses=("I'd never take a whole box of pills",),
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm.pills",
        # All the pills taken, or ready, or put by.
        alternatives=(
            r"\btak(?:e|ing) (?:all )?(?:my|the|these|those|all the) (?:pills|tablets)\b",
            r"\b(?:the|my) (?:pills|tablets) (?:in front of me|ready|lined up)\b",
            r"\bswallow(?:ed|ing)? (?:all )?(?:my|the) (?:pills|tablets)\b",
            # pills put by: "enough tablets saved now", "been saving my tablets"
            r"\benough (?:pills|tablets|meds|medication|painkillers|paracetamol|sleeping "
            r"pills)\b(?=[^.!?\n]{0,25}\b(?:saved|stashed|put away|hidden|to do it)\b)",
            r"\b(?:pills|tablets|meds|painkillers|paracetamol) (?:saved|stashed|put away|"
            r"hidden)(?: up)?\b",
            r"\b(?:saving|saved|stashing|stashed|collecting|collected) (?:up )?(?:all )?(?:my |"
            r"the )?(?:pills|tablets|meds|medication|painkillers|paracetamol|sleeping pills)\b",
        ),
        matches=(
            "I'm going to take all my pills",
            "I've got my tablets ready",
            "I swallowed all the pills",
            "enough tablets saved now",
            "I've got pills stashed away",
            "I've been saving my tablets",
        ),
        misses=("I'm not going to take all my pills",),
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm.at_the_edge",
        alternatives=(
            r"\bjump(?:ing)? (?:off|from|in front of)\b",
            r"\b(?:thinking|thought) (?:about|of) jumping\b",
            r"\b(?:standing|stood|sitting|sat) (?:on|at) the (?:top of the |edge of the )?"
            r"(?:edge|bridge|ledge|roof|cliff|cliffs|clifftop|cliff top)\b(?! (?:cafe|café|walk|"
            r"path|pub|bar))",
            r"\bedge of the (?:platform|bridge|roof|cliff)\b",
            r"\b(?:drive|driving|drove|crash|crashing) (?:my car |the car )?(?:into|off) (?:a |"
            r"the )?(?:wall|tree|bridge|lorry|truck|river|cliff)\b",
            r"\b(?:bought|got|have|found|tied|'ve got) (?:a |the |some )?rope\b",
            r"\b(?:sat|sitting|sit|stared|staring|looked|looking|held|"
            r"holding)\b[^.!?\n]{0,40}?\b(?:the|a|my) (?:razor|razors|blade|blades|rope|belt|"
            r"bottle of pills)\b",
            r"\b(?:looked|looking|stared|staring|stood|standing) (?:at|down at|over|by|near) "
            r"(?:the )?(?:train )?(?:tracks|railway line|rails|drop|edge)\b",
            r"\brope\b[^.!?\n]{0,40}\bwhat it'?s for\b",
            r"\b(?:letters|notes) (?:are|have been|'re) (?:all )?(?:written|done|finished|"
            r"ready)\b(?=[^\n]{0,80}\b(?:peace|goodbye|sorry|ready|gone|after|dog|cat|kids)\b)",
            r"\bif i die\b",
            r"\bhow many (?:pills|tablets) (?:it would take|would it take|to)\b",
            r"\b(?:every|all the) (?:pill|pills|tablet|tablets) in (?:this|the) house\b",
            r"\bmake it through (?:tonight|the night|the weekend)\b",
            r"\b(?:suicide|goodbye) (?:note|letter)s?\b",
            r"\bletters (?:for|to) everyone\b",
        ),
        matches=(
            "I want to jump off the bridge",
            "I've been thinking about jumping",
            "I'm standing on the bridge",
            "at the edge of the platform",
            "I'll drive into a wall",
            "I bought a rope",
            "sitting here holding the razor",
            "I was staring at the train tracks",
            "I have a rope, you know what it's for",
            "the letters are written, I'm at peace",
            "if i die, look after the dog",
            "how many pills it would take",
            "every pill in this house",
            "I'm not sure I'll make it through the night",
            "I've written a suicide note",
            "I've written letters for everyone",
        ),
        misses=(
            "we sat on the cliff path for lunch",
            "I would never jump off a bridge",
        ),
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm.looking_up_how",
        # Indirect words: planning, researching, "just not being here".
        alternatives=(
            r"\b(?:looking up|looked up|look up|googl(?:e|ed|ing)|search(?:ed|ing)|research(?:ed|"
            r"ing)|reading up on|read up on|reading about|read about|looking at|looked at) (?:on "
            r")?how (?:many|much|long|to)\b[^.!?\n]{0,40}?\b(?:pills?|tablets?|paracetamol|"
            r"painkillers|take|takes|die|kill|it takes|overdose|hang|drown|bleed|end|lethal|"
            r"fatal)\b",
            r"\bhow many (?:\w+ )?(?:pills|tablets|paracetamol|painkillers|sleeping pills|"
            r"co-codamol|ibuprofen|aspirin) (?:it|would|does|to)\b",
            r"\b(?:think|thinking|thought) (?:a lot |so much |more and more )?(?:about|of) "
            r"(?:just )?(?:stopping|ending it|ending things|driving (?:into|off)|swerving|"
            r"jumping|stepping (?:off|out)|disappearing for good)\b",
            r"\b(?:letters?|notes?) (?:to|for) (?:my|everyone|the kids|all)\b[^\n]{0,40}?\b"
            r"(?:just in case|in case|when i'?m gone|for after)\b",
            r"\b(?:stockpil\w*|hoard\w*|stash\w*|kept|keeping|hid|hidden|hiding|saved|saving|"
            r"collecting|counted|counting)\s+(?:[\w']+\s+){0,4}?(?:pills|tablets|meds|"
            r"medication|painkillers|paracetamol)\b",
            r"\bwhat (?:does it|would it|will it|difference does it) (?:even )?(?:matter|make) "
            r"if i (?:just )?(?:die|died|do it|did it|was gone|wasn'?t here|disappeared|ended it|"
            r"went)\b",
            r"\bdo it myself\b(?=[^\n]{0,20}\bfirst\b)",
            r"\b(?:i'?m|i am) (?:on|at) (?:the|a) (?:bridge|ledge|roof|rooftop|cliff|tracks|"
            r"railway|top of the|edge)\b(?![^\n]{0,40}\b(?:where are you|we said|meet (?:you|"
            r"me)|see you|waiting for you)\b)",
            r"\b(?:hear your voice|talk to you|say goodbye) (?:one (?:more|last)|for the last) "
            r"time\b",
            r"\b(?:this is|it'?s) (?:my|the) last (?:message|text|time you'?ll hear)\b",
        ),
        matches=(
            "I've been looking up how many pills it takes",
            "how many paracetamol would kill you",
            "I keep thinking about ending it",
            "I've written letters to my kids just in case",
            "I've been hiding my pills",
            "what does it matter if i die",
            "I'll do it myself first",
            "I'm on the bridge",
            "I just wanted to hear your voice one last time",
            "this is my last message",
        ),
        misses=(
            "I'm on the bridge, where are you? we said 2pm",
            "I'm not hiding my pills",
        ),
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm.heights_and_medicines",
        # Means and places: pills saved up, the top floor, "won't come back down".
        alternatives=(
            r"\b(?:stockpil\w*|hoard\w*|stash\w*|saving up|saved up|collecting|counting)\s+"
            r"(?:up\s+)?(?:my|the|his|her|all (?:my|the))\s+(?:sertraline|citalopram|fluoxetine|"
            r"diazepam|zopiclone|codeine|co-codamol|tramadol|insulin|antidepressants|sleeping "
            r"(?:pills|tablets)|morphine|oxycodone|propranolol|amitriptyline|mirtazapine)\b",
            r"\b(?:won'?t|will not|not going to|never) (?:be )?(?:coming|come|get) (?:back "
            r")?down\b(?! (?:for|to|until|till|the stairs|here|there|today|tonight)\b)",
            r"\b(?:top (?:floor|level|storey|deck)|roof) of (?:the |a )?(?:multi-?storey|car "
            r"park|building|block|tower|flats)\b(?=[^\n]{0,80}\b(?:won'?t|never|last|times|"
            r"alone|edge|jump)\b)",
        ),
        matches=(
            "I've been stockpiling my sertraline",
            "I won't be coming back down",
            "top floor of the car park, looking at the edge",
        ),
        misses=("I won't be coming down for dinner",),
        person="infer",
    ),
    Rule(
        "self_harm.plan_or_burden",
        # Plans, goodbyes, a way out, a burden, means ready.
        alternatives=(
            r"\b(?:got|have|made) a plan\b[^.!?\n]{0,10}\band i(?:'ve)? (?:know|picked|chosen|"
            r"set|decided) (?:when|how|where|the date|a date|the day)\b(?!\s+(?:i'?ll|i will|to|"
            r"we|he|she|they|i'?m|i am)\b)",
            r"\bi (?:won'?t|will not|'m not going to) be (?:a|your|anyone'?s) burden (?:anymore|"
            r"any more|much longer|for long|after (?:tonight|today))\b",
            r"\bsorry for everything\b(?! (?:today|tonight|earlier|yesterday|last night|this "
            r"morning))(?![^\n]{0,80}\bsee you\b)[^\n]{0,60}?\b(?:love you all|goodbye|look "
            r"after|take care of|tell (?:the kids|mum|mom|everyone)|won'?t be)\b",
            r"\bgoodbye\b[^\n]{0,40}?\bsorry for everything\b",
            r"\bonly (?:one )?way out\b(?! of (?:the|a|that)\b| is (?:through|to|past|via|by)\b)",
            r"\bno way out (?:of this )?(?:except|but|apart from) one\b",
            r"\b(?:i'?m|i am|i feel like) (?:such |just |nothing but )?a burden (?:to|on) "
            r"(?:everyone|everybody|my family|you all|all of you|the world)\b",
            r"\b(?:relieved|better off|happier) if i (?:was|were) (?:gone|dead|not here)\b",
            r"\b(?:easy|tempted|tempting|want(?:ed)? to|thought about|thinking about|could) "
            r"(?:to )?(?:just )?(?:step|stepping|jump|jumping|walk|walking) (?:off|in front of|"
            r"into|from) (?:the|a) (?:platform|bridge|ledge|roof|edge|cliff|train|tracks|balcony|"
            r"building|traffic)\b",
            r"\bhow (?:much|many) (?:\w+ )?(?:insulin|paracetamol|pills|tablets|painkillers|"
            r"co-codamol|ibuprofen|aspirin|codeine|morphine|sertraline|antidepressants) (?:it "
            r"would take|would it take|(?:it )?takes? to (?:die|kill|overdose|be fatal)|is "
            r"(?:lethal|fatal))\b",
            r"\b(?:i'?ve got|i have|got) (?:the|my|all (?:the|my)) (?:pills|tablets|rope|razor|"
            r"razors|blades?) (?:here|ready|in front of me|with me|next to me|lined up)\b(?! "
            r"(?:for|to give|to drop|to take back)\b)",
        ),
        matches=(
            "I've got a plan and i know when",
            "I won't be a burden much longer",
            "sorry for everything. love you all",
            "goodbye, and sorry for everything",
            "it's the only way out",
            "there's no way out except one",
            "I'm such a burden to everyone",
            "they'd be relieved if i was gone",
            "it would be so easy to step off the platform",
            "how much insulin would it take",
            "I've got all my pills ready",
        ),
        misses=(
            "sorry for everything today, see you tomorrow",
            "the only way out of the car park",
        ),
        person="infer",
    ),
    Rule(
        "self_harm.thinking_of_dying",
        alternatives=(
            r"\b(?:think|thinking|thought|dream|dreaming|fantasi[sz]e|fantasi[sz]ing) (?:a lot |"
            r"constantly |all the time |every day |so much )?(?:about|of) (?:dying|being dead|"
            r"killing myself|not existing|not being alive|ending it all|ending everything)\b",
            r"\b(?:feel like|want to|wanna|going to|thinking of|thinking about) (?:just )?"
            r"(?:ending|end) (?:everything|it all|my life)\b(?! on a| with a| early| at| for the)",
            r"\b(?:nothing left|no point|can'?t do this|can'?t go on|no way "
            r"through)\b[^\n]{0,40}\b(?:sorted|got|ready|counted|lined up|gathered|saved) "
            r"(?:the|my|all (?:the|my)|enough) (?:pills|tablets)\b(?! for\b)",
        ),
        matches=(
            "I keep thinking about dying",
            "I feel like ending it all",
            "there's no point, I've got enough tablets",
        ),
        misses=("I want to end it all on a high",),
        person="infer",
    ),
    Rule(
        "self_harm.took_pills",
        alternatives=(
            r"\b(?:took|taken|swallowed|downed) (?:\d+|two|three|four|five|six|ten|twelve|"
            r"fifteen|twenty|thirty|forty|fifty|a hundred|all|half|loads|most|the rest) of (?:my|"
            r"the|his|her|those|these|mum's|dad's) (?:pills|tablets|meds|medication|painkillers|"
            r"paracetamol|sleeping pills)\b(?! (?:to|round|over|back|with|into|in|for)\b)",
            r"\bif you (?:leave|go|don'?t|won'?t|block)\b[^.!?\n]{0,40}\bi(?:'ll| will) "
            r"(?:just )?end it\b(?! with| up\b)",
        ),
        matches=(
            "I took 20 of my pills",
            "if you leave me i'll end it",
        ),
        misses=("I took half of the tablets back to the pharmacy",),
        person="infer",
    ),
    Rule(
        "self_harm.car_or_train",
        # the car, the wheel, the train timetable; "not safe from me"
        alternatives=(
            r"\b(?:drive|driving|crash|crashing|steer|steering|put|putting)\s+(?:this|the|"
            r"my)\s+car\s+(?:into|off)\s+(?:a|the)\s+(?:wall|tree|river|lorry|bridge|truck|cliff|"
            r"barrier)\b",
            r"\blet(?:ting)? go of the (?:steering )?wheel\b",
            r"\bnot bother(?:ing)? to (?:correct|brake|swerve|steer)\b",
            r"\b(?:i'?m|i am|im) not safe\b[^\n]{0,40}?\bfrom (?:me|myself)\b",
            r"\b(?:train|trains|tracks|bridge|platform|timetable)\b[^\n]{0,80}?\b(?:not "
            r"because i want to go anywhere|if you (?:get|know) what i mean)\b",
            r"\b(?:easier|better) for everyone if i (?:just |simply )?(?:wasn'?t|weren'?t|was "
            r"not|were not) (?:here|around|alive)\b",
            r"\bhow i'?d (?:actually |really )?do it\b",
        ),
        matches=(
            "I could drive this car into a wall",
            "I keep wanting to let go of the wheel",
            "I thought about not bothering to brake",
            "I'm not safe from myself",
            "the trains are running, if you know what i mean",
            "it'd be better for everyone if i wasn't here",
            "I've thought about how i'd do it",
        ),
        misses=("I put the car into the garage",),
        person="infer",
    ),
    Rule(
        "self_harm.close_to_it",
        alternatives=(
            r"\b(?:simpler|easier|better) to (?:just )?(?:not exist|not be here|not wake up|"
            r"disappear|be dead|die)\b",
            r"\b(?:just )?not exist(?:ing)? any ?more\b",
            r"\bswallow(?:ed|ing)? everything\b",
            r"\beverything in the (?:bathroom |medicine )?cabinet\b",
            r"\b(?:drove|went|walked|sat|stood) (?:to|on|at|by) the (?:bridge|cliffs?|edge|"
            r"tracks|railway|river|roof|platform)\b[^\n]{0,80}\b(?:didn'?t do it|couldn'?t do "
            r"it|next time|almost|nearly)\b",
            r"\b(?:staring|stare|sat staring) at (?:the|my|all the|all my) (?:pills|tablets|meds|"
            r"razors?|blades?|rope)\b",
            r"\b(?:looking|look|sat looking) at (?:the|my|all the|all my) (?:pills|tablets|meds|"
            r"razors?|blades?|rope)\b(?=[^\n]{0,40}\b(?:all night|for hours|thinking about|"
            r"thinking it|and think|how many)\b)",
            r"\b(?:think|thinking|thought) about (?:just )?(?:stepping|jumping|stepping forward|"
            r"stepping off|falling|driving off)\b",
            r"\b(?:said|saying) (?:my )?goodbyes? to (?:the|my|everyone|everybody)\b"
            r"(?=[^\n]{0,80}\b(?:i'?m done|thank you for|i'?m sorry|last|forgive me)\b)",
            r"\b(?:hit|punched|slapped|cut|burned|burnt|scratched|bit) myself\b"
            r"(?=[^\n]{0,80}\b(?:over and over|on purpose|deliberately|again and again|until|"
            r"hate myself|punish|to feel)\b)",
            r"\b(?:the |my )?(?:pills|tablets) are (?:in front of me|ready|lined up|counted "
            r"out)\b",
            r"\b(?:razor|blade|knife)(?:'s| is) out\b",
            r"\b(?:took|taken|injected) (?:all (?:of )?)?my (?:insulin|meds|medication|pills|"
            r"tablets)\b",
            r"\bby the time you read this\b",
            r"\blast message ever\b",
        ),
        matches=(
            "it'd be easier to not exist",
            "I just want to not exist anymore",
            "I could swallow everything",
            "everything in the medicine cabinet",
            "I drove to the bridge last night but couldn't do it",
            "I'm staring at the pills",
            "looking at my pills for hours",
            "I thought about stepping forward",
            "I said goodbye to everyone, I'm sorry",
            "I hit myself over and over",
            "the tablets are lined up",
            "the razor's out",
            "I took all my insulin",
            "by the time you read this",
            "this is my last message ever",
        ),
        misses=("looking at the tablets on the chemist's shelf",),
        person="infer",
    ),
)
