"""Stalking shown by knowing: where the user lives and goes, who came round, what they
wore today."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        "stalking.knows_where",
        alternatives=(
            r"\bi know where (?:you|u) (?:live|work|are|sleep|park|go|stay|shop|train)\b",
            r"\b(?:i )?know (?:your|ur) (?:new )?(?:address|route|routine|schedule|shifts)\b",
            r"\bi know what time (?:you|u) (?:finish|leave|get|start|go)\b",
            r"\bi saw who (?:left|came|was)\b",
            r"\bi'?ll come (?:and|to) (?:get|find) (?:you|u)\b",
            r"\bknow (?:which|what) (?:gym|school|route|bus|train|shop|cafe|class|time|days?|car|"
            r"road|street|flat|house|door|shifts?|hours|pub|church|nursery|office) (?:you|u)\b",
            r"\bi'?ll know if (?:you|u)\b",
            r"\bi can see (?:your|ur) (?:light|window|car|door)",
            r"\b(?:watching|following) (?:you|u|me)\b",
            r"\bpretending to be (?:my|your|his|her|a|the) (?:sister|brother|mum|mom|dad|friend|"
            r"colleague|boss|cousin|police|doctor|manager)\b",
            r"\b(?:find|finding|found) out (?:my|your|ur) (?:shifts|address|location|new number|"
            r"schedule|route)\b",
            r"\b(?:put|installed) (?:something|an app|a tracker|spyware) on (?:my|your) (?:phone|"
            r"car|laptop)\b",
            r"\bknows? (?:my |your )?every (?:message|text|move|call|step)\b",
            r"\b(?:has|have|got|sees?|check(?:s|ing)?|track(?:s|ing)?|watch(?:es|ing)?) (?:my|"
            r"your|ur) (?:live |phone(?:'s)? |car(?:'s)? )?location\b",
            r"\b(?:your|ur) (?:bedroom |kitchen |living room |front room |landing |bathroom "
            r")?lights? (?:was|were|is|are|'s|went) (?:still )?(?:on|off)\b",
            r"\bsaw (?:him|her|them) (?:dropping|drop|picking|pick) (?:you|u) (?:off|up)\b",
            r"\b(?:someone|somebody|he|she|they)(?:'s| has| have|'ve) been (?:in|inside|through) "
            r"(?:my|our) (?:flat|house|home|room|bedroom|car|place|drawers|stuff|things|bins|"
            r"post)\b",
            r"\b(?:he|she|they|him|them|someone|somebody|his \w+|her \w+|their \w+|i'?m|i was|"
            r"i'?ve been)\b[^.!?\n]{0,50}?\boutside (?:my|your|ur|our) (?:\w+ )?(?:house|flat|"
            r"home|work|office|place|door|window|school|building|gym|job|workplace|bedroom)\b",
            r"\b(?:i'?m|he'?s|she'?s|been|was|i am) (?:parked|sat|sitting|waiting|standing) "
            r"(?:across the road|down the road|round the corner|outside)\b",
            r"\bknows? where i (?:live|work|am|stay)\b",
            r"\b(?:always|still) knows? where (?:i|you)\b",
        ),
        matches=(
            "I know where you live",
            "I know your new address",
            "I know what time you finish",
            "I saw who left your flat",
            "I'll come and get you",
            "I know which bus you get",
            "I'll know if you go out",
            "I can see your light on",
            "he's always watching me",
            "someone's pretending to be my sister online",
            "he found out my shifts",
            "he put a tracker on my car",
            "he knows my every move",
            "he checks my location",
            "your bedroom light was on late",
            "saw him dropping you off",
            "someone's been in my flat",
            "he was outside my work again",
            "he's parked across the road",
            "he knows where i live",
            "he always knows where i am",
        ),
        misses=(
            "I know where you can buy it cheaper",
            "the neighbour's dog keeps following me round the garden",
        ),
    ),
    Rule(
        "stalking.saw_you",
        alternatives=(
            r"\b(?:i )?(?:saw|seen|spotted|clocked) (?:you|u|your car|ur car|your van|your new "
            r"\w+|your (?:kids|son|daughter|mum|mom)) (?:at|in|with|leaving|going|coming|outside|"
            r"yesterday|today|last night|this morning|on|parked)\b",
            r"\b(?:see|saw|heard|hear|know|noticed) (?:that )?you'?ve moved (?:to|into|in)\b",
            r"\b(?:keep|kept|keeps) seeing (?:his|her|their|the same|that) (?:\w+ )?(?:car|van|"
            r"face|bike)\b",
            r"\b(?:knows?|knew) (?:things|stuff) (?:that )?i (?:only|never|haven'?t|didn'?t)\b",
            r"\byou looked (?:\w+ ){0,2}(?:in that|today|this morning|yesterday|last night|on "
            r"(?:the|your) (?:bus|train|way))\b",
            r"\b(?:got|gets|get|getting) into (?:my|your|ur) (?:\w+ )?(?:account|accounts|email|"
            r"emails|phone|icloud|laptop|facebook|instagram|whatsapp|google|gmail)\b",
        ),
        matches=(
            "I saw you at the pub",
            "I heard you've moved to Leeds",
            "I keep seeing his car",
            "he knows things i never told him",
            "you looked lovely in that dress",
            "he got into my email",
        ),
        misses=("I saw you on the telly last night!",),
    ),
    Rule(
        "stalking.knows_what_you_did",
        alternatives=(
            r"\bi know (?:you'?re|you are|your) (?:at|in|with|staying)\b",
            r"\bi know what (?:you|u) did (?:today|yesterday|last night|this morning)\b",
            r"\basking (?:everyone |people |around |my friends |all over )?where i (?:am|live|"
            r"work)\b",
            r"\basking (?:everyone|people|around|my friends|all over) where you (?:are|live|"
            r"work)\b",
        ),
        matches=(
            "I know you're at your mum's",
            "I know what you did last night",
            "he's been asking everyone where i live",
            "he's asking people where you work",
        ),
        misses=("I know you're busy",),
    ),
    Rule(
        "stalking.knows_your_life",
        # Showing they know the user's home, car, day or people: "nice new curtains".
        alternatives=(
            r"\b(?:nice|like|love|lovely|liking|loving|saw|seen|noticed|see) (?:the |your |ur |"
            r"those |that )?new (?:curtains|blinds|front door|door|doorbell|gate|fence|hedge|"
            r"porch|car|number plate|windows|neighbours|flatmate|housemate|place|flat|house)\b",
            r"\b(?:had|have|having) a (?:\w+ )?(?:chat|word|talk|natter|coffee) with (?:your|ur) "
            r"(?:manager|boss|colleagues?|neighbours?|landlord|landlady|receptionist|new \w+|"
            r"housemates?|flatmates?|kids'? teacher|teacher)\b",
            r"\b(?:your|ur) (?:manager|boss|colleagues?|neighbours?|landlord|landlady|"
            r"receptionist|new (?:boyfriend|girlfriend|fella|man|woman|partner|flatmate|"
            r"housemate)) (?:seems?|looks?|is|are) (?:nice|lovely|friendly|sweet|pretty|chatty|"
            r"helpful)\b",
            r"\b(?:(?:spoke|talked|been talking|chatted) to|met) (?:your|ur) (?:manager|boss|"
            r"colleagues?|neighbours?|landlord|landlady|receptionist)\b",
        ),
        matches=(
            "nice new curtains",
            "had a little chat with your manager",
            "your new boyfriend seems nice",
            "I met your landlord",
        ),
        misses=("I had a chat with my manager",),
    ),
    Rule(
        "stalking.asking_where",
        alternatives=(
            r"\b(?:asking|asked|asks|been asking) (?:everyone|around|people|my friends|all my "
            r"friends|my family|my (?:mum|mom|dad|sister|brother|colleagues?|neighbours?)) "
            r"(?:where|what) (?:i|i'?ve|i'?m) (?:moved|live|am|went|work|living|staying|moved "
            r"to)\b",
        ),
        matches=("my friend said he's been asking everyone where I moved to",),
        misses=("he asked me where I went to school",),
    ),
    Rule(
        "stalking.who_came",
        # Knowing who came and went, where they park, which flat, which account.
        alternatives=(
            r"\bwho (?:was|were|is) (?:the|that|this) (?:guy|man|bloke|fella|woman|girl|lad|car|"
            r"van|person) (?:who|that)?(?: \w+)? ?(?:left|came|leaving|coming|at|outside|round|"
            r"visited|dropped) (?:your|yours|ur|your place|the flat|the house)\b",
            r"\bi know where (?:your (?:new )?\w+) (?:lives?|works?|parks?|drinks?|goes|stays?|"
            r"trains?|sleeps?)\b",
            r"\btell (?:your|ur) (?:new )?\w+ (?:that )?i know where (?:he|she|they)\b",
            r"\b(?:man|woman|guy|bloke|someone|somebody|he|she|they)\b[^.!?\n]{0,40}?\b"
            r"(?:asking|been asking|asked around) (?:\w+ ){0,3}?(?:which|what) (?:flat|"
            r"apartment|house|room|door|number|floor|building|address|unit) (?:was|is|i|you)\b",
            r"\b(?:app|apps|software|program|something) (?:on|in) (?:my|your) (?:phone|laptop|"
            r"car|computer|tablet|ipad)\b[^.!?\n]{0,20}?\b(?:i|you) (?:never|didn'?t|did not) "
            r"(?:install|download|put|add)\w*\b(?! (?:it )?myself)",
            r"\b(?:fake|secret|burner|new|anonymous) (?:accounts?|"
            r"profiles?)\b[^.!?\n]{0,60}?\b(?:watch\w*|view\w*|look\w*|like\w*|check\w*) "
            r"(?:\w+ ){0,5}?(?:my|your|ur) (?:stories|story|posts|photos|pictures|profile|"
            r"status)\b",
            r"\b(?:no caller id|withheld number|private number|unknown number|blocked "
            r"number)\b[^\n]{0,60}?\b(?:nobody|no one|no-one|nothing|just breathing|hangs? up|"
            r"every (?:night|day|morning)|again)\b",
            r"\bevery (?:night|day|morning|evening)\b[^.!?\n]{0,40}?\b(?:no caller id|withheld|"
            r"private number|unknown number|silent call)\b",
            r"\bsilent (?:phone )?calls?\b",
            r"\b(?:same|a|that|his|her) (?:\w+ ){0,2}(?:car|van|audi|bmw|motorbike|"
            r"bike)\b[^.!?\n]{0,40}?\bbehind me\b[^.!?\n]{0,60}?\b(?:all the way|for miles|"
            r"again|every|round|followed|following|days?|times|twice)\b",
            r"\b(?:turn(?:ed|s|ing)?|show(?:ed|s|ing)?) up (?:at|outside) (?:her|his|their|"
            r"\w+'s) (?:house|flat|place|work|door|home)\b[^.!?\n]{0,60}?\b(?:looking for|"
            r"after) (?:me|you)\b",
            r"\bfollowed (?:me|you|us) (?:\w+ )?to\b",
            r"\bi followed you\b",
            r"\b(?:new address|new number|new flat|new house|new place|my address|my "
            r"number)\b[^\n]{0,60}?\b(?:nobody|no one|no-one) (?:has|knows|had|knew) (?:it|"
            r"about|of it)\b(?! yet)",
            r"\b(?:nobody|no one|no-one) (?:has|knows|had|knew) (?:the address|my (?:new )?"
            r"(?:address|number)|where i (?:live|am|moved))\b(?: except| apart from| but| other "
            r"than| besides)",
        ),
        matches=(
            "who was that man leaving your place",
            "I know where your new boyfriend lives",
            "tell your new fella I know where he lives",
            "a man was asking which flat was yours",
            "there's an app on my phone i never installed",
            "a fake account keeps viewing my stories",
            "withheld number every night, just breathing",
            "every night a call from a withheld number",
            "silent calls again",
            "the same car was behind me all the way home",
            "he turned up at her house looking for me",
            "he followed me to work",
            "I followed you",
            "he sent a card to my new address and nobody knows it",
            "nobody knows my new address except my sister",
        ),
        misses=(
            "my new address, nobody knows it yet",
            "who was the guy at the door? the postman?",
        ),
    ),
    Rule(
        "stalking.saw_you_today",
        # A message that shows the sender saw the user today: "nice jacket today".
        alternatives=(
            r"\b(?:nice|lovely|like (?:the|your|that)|love (?:the|your|that)|liked (?:the|your)|"
            r"cute) (?:new )?(?:jacket|coat|dress|top|hair|haircut|shoes|boots|outfit|scarf|"
            r"skirt|jeans|jumper|hat|trainers)\b[^.!?\n]{0,25}?\b(?:today|this morning|"
            r"yesterday|last night|tonight|earlier)(?=\s*(?:[.]|$))",
            r"\byou were (?:at|in|outside|leaving|coming out of) (?:the |your |that )?\w+(?: "
            r"\w+)? (?:at \d+(?: \w+){0,3}|again(?: \w+){0,3}|this morning|last night|"
            r"earlier)(?=\s*(?:[.!,]|$))",
        ),
        matches=(
            "nice jacket today.",
            "you were at the gym again",
        ),
        misses=("nice jacket today, where's it from?",),
        source="incoming",
    ),
    Rule(
        "stalking.knows_your_shifts",
        alternatives=(
            r"\b(?:to tell|told|telling|asking|asked|find out|found out|finding out) (?:him|her|"
            r"them) (?:what|which|where|when) (?:shifts?|hours|days?|times?|route|bus|train|"
            r"class|gym|school|nursery|flat|address)\b (?:i'?m|i|my)\b",
            r"\b(?:he|she|they)\b[^.!?\n]{0,30}\b(?:asking|asked|finding out|found out|knows?) "
            r"(?:what|which) (?:shifts?|hours) i'?m\b",
            r"\b(?:delivery|card|letter|flowers|parcel|present|note)\b[^.!?\n]{0,40}\bnew "
            r"(?:flat|address|house|place)\b[^.!?\n]{0,20}\b(?:which|that) (?:nobody|no one|"
            r"no-one) (?:knows|knew) about\b(?! yet)",
        ),
        matches=(
            "she's been telling him what shifts i'm on",
            "he knows what shifts i'm on",
            "a card arrived at my new flat which nobody knows about",
        ),
        misses=("a card arrived at my new flat which nobody knows about yet",),
    ),
    Rule(
        "stalking.noticed_your_hair",
        alternatives=(
            r"\bi (?:see|saw|noticed|notice) (?:you'?ve|you have|you) (?:changed|cut|dyed|had) "
            r"(?:your|ur) hair(?: cut| done)?(?=\s*(?:\.|$))",
        ),
        matches=("i see you've changed your hair.",),
        misses=("i see you've changed your hair, it looks great",),
        source="incoming",
    ),
    Rule(
        "stalking.asking_about_you",
        # someone asking others about the user's shifts, address or car
        alternatives=(
            r"\b(?:asking|asked|asks|wanted to know|wants to know|trying to find out)\b"
            r"(?:\s+\w+){0,4}?\s+(?:(?:what|which) shifts? (?:you|u)(?:'re| are)|where (?:you|"
            r"u|i|she)(?:'re|'m| are| am| is|'s)? (?:living|staying|live|lives|park|parks|"
            r"parking)(?: now)?|(?:whether|if) (?:you|u|she) still park|(?:when|what time) "
            r"(?:you|u|she) (?:finish|start|leave|get off|clock off))\b",
        ),
        matches=("he's been asking what shift you're on",),
        misses=("she asked what shift you wanted",),
        source="incoming",
    ),
    Rule(
        "stalking.eyes_everywhere",
        alternatives=(
            # "Nice red coat today": the sender has seen the user without being seen
            r"\b(?:nice|lovely|love (?:the|your|ur)|like (?:the|your|ur)|liked (?:the|your|ur)|"
            r"cute|suits you|new)\b[^.!?\n]{0,25}?\b(?:coat|dress|jacket|top|haircut|hair|"
            r"outfit|shoes|boots|jumper|hoodie|scarf|bag|car)\b[^.!?\n]{0,25}?\b(?:today|"
            r"tonight|this morning|this afternoon|earlier|yesterday)\b(?![^.!?\n]{0,10}\bat "
            r"(?:the|your|ur|our|his|her)\b)",
            # location sharing, trackers, keys, "eyes everywhere"
            r"\blocation(?:'s| is)? (?:still )?(?:shared|sharing|on)\b",
            r"\bcheck (?:under|behind|inside) (?:your|ur) (?:\w+ )?(?:bumper|car|wheel arch|seat|"
            r"bag)\b",
            r"\b(?:i'?ve|i have|i'?ve still|i still|still) got (?:a |your |ur |the )?(?:spare "
            r")?keys?\b(?=[^\n]{0,80}\b(?:let myself in|been in|popped in|came in|go in|get "
            r"in)\b)",
            r"\blet myself in\b",
            r"\b(?:i'?ve|i have|i got) (?:got )?eyes everywhere\b",
            r"\bi (?:know|knew) (?:what car|which car|the car|where) (?:you|u|he|she|they) "
            r"(?:drive|drives|park|parks|leave|leaves|keep|keeps)\b",
            r"\bwhere (?:you|u|i|she) (?:were|was) (?:going )?every (?:monday|tuesday|wednesday|"
            r"thursday|friday|saturday|sunday|week|day|night|morning)\b",
            r"\bmessaged (?:every|all|each) (?:single )?(?:one of )?my (?:friends|family|"
            r"colleagues)\b[^.!?\n]{0,30}?\basking where\b",
        ),
        matches=(
            "nice red coat today",
            "your location is still on",
            "check under your car",
            "I still got a spare key, popped in earlier",
            "I let myself in",
            "I've got eyes everywhere",
            "I know what car you drive",
            "I know where you were every friday",
            "he messaged all my friends asking where I was",
        ),
        misses=(
            "nice coat today at the office party",
            "location sharing with my kids is on",
        ),
    ),
)
