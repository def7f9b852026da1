"""Self-harm in words: wanting to die, no point going on, not being here."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        "self_harm.kill_myself",
        alternatives=(
            r"\bkill(?:ing)? myself\b",
            r"\b(?:end|ending|take|taking) (?:it all|my (?:own )?life)\b",
        ),
        matches=(
            "I want to kill myself",
            "I'm going to end my life",
        ),
        misses=(
            "I'm not going to kill myself",
            "my doctor asked if i'd had thoughts of killing myself",
        ),
        negatable=True,
        person="first",
    ),
    Rule(
        "self_harm.suicide",
        alternatives=(r"\bsuicid(?:e|al)\b",),
        matches=("I feel suicidal",),
        misses=("I'm not suicidal, just tired",),
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm.named",
        alternatives=(r"\bself[- ]?harm(?:ing)?\b",),
        matches=("I've started self-harming again",),
        misses=("I don't self harm anymore",),
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm.want_to_die",
        alternatives=(
            r"\b(?:want|wanna|going|ready|deserve|wish i could|i'?d rather|i just want) to die\b",
        ),
        matches=("I just want to die",),
        misses=("I don't want to die, I want to feel better",),
        negatable=True,
        person="first",
    ),
    Rule(
        "self_harm.wish_dead",
        alternatives=(
            r"\bwish i (?:was|were|had) (?:dead|never been born)\b",
            r"\bbetter off dead\b",
            r"\b(?:better off|happier) without me\b(?! for\b| tonight| this| at| on| while| in "
            r"the)",
            r"\bbetter off if i (?:was|were|wasn'?t|weren'?t|was not|were not|didn'?t|did "
            r"not)\s+(?:here|around|alive|exist)",
            r"\b(?:don'?t|do not|no longer) want to (?:be here|be alive|live|exist|wake up|go on|"
            r"be around)\b(?! (?:early|late|at|before|on|in|with|near|there|when|for|by|next|"
            r"abroad|together)\b)",
        ),
        matches=(
            "I wish I was dead",
            "I'd be better off dead",
            "everyone would be happier without me",
            "they'd be better off if i wasn't here",
            "I don't want to be here anymore",
        ),
        misses=(
            "they'd be happier without me at the party",
            "I don't want to be here early",
        ),
        person="first",
    ),
    Rule(
        "self_harm.no_point",
        alternatives=(
            r"\bno (?:point|reason) (?:in |to )?(?:living|live|going on|keep going|carry on|"
            r"carrying on|being alive|being here)\b",
            r"\bwhat'?s the point (?:of|in) (?:living|life|going on|being alive|anything)\b",
            r"\bwhat'?s the point anymore\b",
            r"\bnothing (?:left )?to live for\b",
            r"\bcan'?t go on\b",
            r"\b(?:never|not) wake up\b(?! (?:with|to|early|late|in|on|at|before|after|feeling|"
            r"hungover|sick|grumpy|tired|too|until|till)\b)",
            r"\b(?:better|easier|happier|simpler)(?: off)?(?: for (?:everyone|everybody|them|you|"
            r"all))? if i (?:just )?(?:wasn'?t|weren'?t|was not|were not|didn'?t exist|was gone|"
            r"were gone|just (?:disappeared|went away|died))\b",
            r"\b(?:a|the|my) plan (?:to|for how to) (?:end (?:it|things|my life)|kill myself|die|"
            r"do it)\b",
            r"\b(?:don'?t|do not|can'?t) see the point (?:anymore|any more|in (?:anything|living|"
            r"going on|carrying on|trying|any of (?:it|this))|of (?:anything|living|it all|any "
            r"of (?:it|this)))\b",
            r"\b(?:tired|sick|had enough) of (?:existing|living|being alive|life|being here)\b"
            r"(?! (?:with|in|at|on|near|next|under|out of|off|by|here|there|alone|together)\b)",
            r"\b(?:stop|end)\b[^a-z]{0,3}(?:\w+[^a-z]{1,3}){0,2}permanently\b",
            r"\b(?:don'?t|do not|can'?t) see (?:a|any) (?:future|way out|point)\b(?! (?:in|"
            r"with)\b| for (?!me\b|myself\b))",
            r"\bno point (?:in )?(?:me )?(?:being here|being alive|living|existing|carrying on)\b",
            r"\b(?:can'?t|cannot|don'?t think i can|not sure i can) (?:keep|go on|carry on) "
            r"(?:living|existing|being alive)\b",
            r"\b(?:sleep|go to sleep) forever\b",
            r"\bdisappear forever\b",
            r"\bnot be here anymore\b",
            r"\b(?:want|wants|wanna|going|ready|need) to (?:just )?end (?:it|things|it all)\b(?! "
            r"with)",
            r"\bend(?:ing)? (?:things|it) (?:for good|forever|permanently)\b",
            r"\b(?:better|happier|easier) (?:off )?without me\b(?! for\b| tonight| this| at| on| "
            r"while| in the)",
        ),
        matches=(
            "there's no point living",
            "what's the point of living",
            "what's the point anymore",
            "I have nothing left to live for",
            "I can't go on",
            "I hope I never wake up",
            "it would be easier for everyone if i wasn't here",
            "I have a plan to end it",
            "I don't see the point anymore",
            "I'm tired of living",
            "I want it to stop permanently",
            "I don't see a future",
            "there's no point in me being here",
            "I can't keep living like this",
            "I just want to sleep forever",
            "I want to disappear forever",
            "I'd rather not be here anymore",
            "I want to end it all",
            "I want to end things for good",
            "everyone is better off without me",
        ),
        misses=(
            "I'm so tired I could sleep forever",
            "I never wake up early",
            "I'm tired of living with my parents",
        ),
        person="first",
    ),
    Rule(
        "self_harm.not_being_here",
        # The negation is part of the wish: "thinking about just not being here".
        alternatives=(
            r"\b(?:think|thinking|thought) (?:a lot |so much |more and more )?(?:about|of) "
            r"(?:just )?not (?:being here|being around|existing|waking up|turning|braking|"
            r"stopping|coming back)\b",
            r"\b(?:just|about|of|rather) not (?:being|be) (?:here|around|alive)\b",
        ),
        matches=(
            "I think about just not being here",
            "I'd rather not be here",
        ),
        misses=("I'd rather not be in the photo",),
        person="infer",
    ),
    Rule(
        "self_harm.going_away",
        alternatives=(
            r"\b(?:i'?ll|i will|i'?m going to|i might|might) (?:just )?disappear\b",
            r"\bi (?:just )?want to disappear\b",
            r"\bwish i could (?:just )?(?:disappear|vanish)\b",
            r"\b(?:don'?t think|not sure|don'?t know if) i can (?:keep going|go on|carry on)\b",
            r"\b(?:can'?t|cannot) (?:keep going|carry on)\b(?! with| like)",
            r"\bwant (?:it all|everything|all of (?:it|this)) to (?:stop|end|be over)\b"
            r"(?![^.!?\n]{0,30}\b(?:so i can|exams?|week|shift|term|wedding|move|party)\b)",
            r"\b(?:won'?t|will not) (?:have to )?(?:worry about|put up with|deal with|hear from) "
            r"me (?:much longer|for much longer|for long|after (?:tonight|today|this)|ever "
            r"again)\b(?![^.!?\n]{0,25}\b(?:i'?ll be at|i'?m (?:at|staying|going|off))\b)",
            r"\btell (?:the kids|them|everyone|my \w+|mum|mom|him|her) (?:that )?i loved (?:them|"
            r"him|her|you)\b",
            r"\b(?:nobody|no one|no-one) (?:will|would) (?:even )?(?:miss|notice) (?:me\b(?! if "
            r"i (?:left|leave|went|skipped|didn'?t (?:go|come)))|if i (?:was|were) (?:gone|dead|"
            r"not here|not around)\b|if i (?:died|disappeared|vanished|wasn'?t (?:here|around)|"
            r"weren'?t (?:here|around)|stopped existing|went missing|never came back)\b)",
            r"\bdo something (?:stupid|drastic)\b",
            r"\bwhen i'?m (?:gone|dead|not here|not around)\b",
            r"\b(?:can'?t|cannot|won'?t) (?:promise (?:i'?ll|i will) )?(?:still )?be (?:here|"
            r"around|alive) (?:tomorrow|much longer|for long|by morning)\b",
            r"\b(?:don'?t think|doubt|not sure) i'?ll (?:still )?be (?:here|around|alive) "
            r"(?:much longer|for long|tomorrow|next week|by|for christmas|for (?:my|his|her|"
            r"their|\w+'s) birthday|for (?:the summer|new year)|next (?:year|month)|to see)\b",
            r"\b(?:nobody|no one|no-one) (?:would|will|'d|'ll) (?:even )?(?:care|notice|know) "
            r"(?:if|when) i\b(?! (?:left|leave|went|skipped|skip|didn'?t (?:go|come)|wore|was "
            r"late)\b)",
            r"\bwants? to (?:just )?(?:not exist|stop existing|not be here|not wake up)\b",
            r"\bgiv(?:en|ing|e) away (?:all )?(?:my|his|her) (?:things|stuff|belongings|"
            r"possessions|clothes)\b(?![^.!?\n]{0,40}\b(?:charity|move|moving|sofa|"
            r"declutter\w*|ebay|vinted|gumtree|sell|selling)\b)",
            r"\bwon'?t (?:be )?need(?:ing)? (?:them|it|any of (?:it|this)) (?:anymore|where)\b",
            r"\bi'?d (?:rather|sooner) (?:be dead|die)\b",
            r"\b(?:can'?t|don'?t think i can|not sure i can) do (?:this|it) (?:anymore|any "
            r"more)\b(?=[^\n]{0,60}\b(?:tired of|everything|exhausted|life|point|end|die|"
            r"gone)\b)",
        ),
        matches=(
            "I'll just disappear",
            "I just want to disappear",
            "I wish I could vanish",
            "I don't think i can keep going",
            "I can't carry on",
            "I want it all to stop",
            "you won't have to worry about me much longer",
            "tell the kids i loved them",
            "nobody would miss me",
            "I might do something stupid",
            "when i'm gone, look after the cat",
            "I can't promise i'll be here tomorrow",
            "I doubt i'll be around for christmas",
            "no one would care if i died",
            "I want to not exist",
            "I'm giving away all my things",
            "I won't need them anymore",
            "I'd rather be dead",
            "I can't do this anymore, I'm so tired of everything",
        ),
        misses=(
            "I can't carry on with this project",
            "nobody would notice if i left early",
            "I'm giving away my old clothes to charity",
        ),
        person="first",
    ),
    Rule(
        "self_harm.goodbye",
        alternatives=(
            r"\bthis is (?:my )?goodbye\b(?! to (?!(?:you|everyone|you all|all of you)\b))",
            r"\bi (?:won'?t|will not|'m not going to) be (?:a|your|anyone'?s) (?:problem|bother) "
            r"(?:anymore|any more|much longer|for long|after (?:tonight|today))\b",
        ),
        matches=(
            "this is goodbye",
            "I won't be a problem anymore",
        ),
        misses=("this is goodbye to my old job",),
        person="first",
        source="user",
    ),
    Rule(
        "self_harm.giving_up",
        alternatives=(
            r"\bgiv(?:e|ing|en) up (?:for good|forever)\s*(?:\.|$)",
            r"\bgiv(?:e|ing|en) up on (?:life|living|everything|myself)\b",
            r"\b(?:everyone|everything|everybody|they|you|the world|my family|the kids)(?:'d| "
            r"would| will|'ll) be (?:\w+ )?(?:better|happier|easier|quieter|simpler|calmer|fine|"
            r"lighter) (?:off )?without me\b(?! for\b| tonight| this| at| on| while| in the)",
            r"\b(?:keep|kept|can'?t stop) (?:thinking about|looking at|staring at|going back to) "
            r"(?:the|my|those) (?:pills|tablets|rope|razors?|blades?)\b(?![^.!?\n]{0,40}\b"
            r"(?:doctor|gp|pharmacist|prescri\w+|work|side effects?)\b)",
            r"\b(?:pills|tablets|rope|razors?|blades?)\b[^.!?\n]{0,40}\b(?:keep|kept|can'?t "
            r"stop) (?:thinking about|looking at|staring at) (?:them|it)\b",
        ),
        matches=(
            "I'm giving up for good.",
            "I've given up on life",
            "everyone would be better off without me",
            "I keep looking at the pills",
            "the pills, I keep staring at them",
        ),
        misses=(
            "I keep looking at the pills the doctor gave me",
            "I'm giving up on dieting",
        ),
        person="infer",
    ),
    Rule(
        "self_harm.finished_me_off",
        # the writer's own wish, though someone else is named in it
        alternatives=(
            r"\b(?:easier|better) if (?:he'?d|he had|she'?d|she had|they'?d) (?:just )?finished "
            r"(?:it|me off|the job)\b",
        ),
        matches=("it would have been easier if he'd finished me off",),
        misses=("easier if he'd finished the washing up",),
        person="first",
    ),
)
