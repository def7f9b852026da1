"""Violence done: what someone did to the user, or to others, told after the fact."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule
from flows.analysis.danger.vocabulary import ABUSER, BODY, FAMILY, PAST_HARM

RULES: tuple[Rule, ...] = (
    Rule(
        "violence.hurt_someone",
        # A harm verb in any tense with a person or a body part as its object, said by
        # someone ("he strangled me", "she'll slit your throat", "they beat him").
        alternatives=(
            r"\b(?:kill(?:ed|s|ing)?|murder(?:ed|s|ing)?|strangl(?:e|ed|es|ing)|chok(?:e|ed|es|"
            r"ing)|stab(?:bed|s|bing)?|slit(?:s|ting)?|punch(?:ed|es|ing)?|beat(?:s|ing|en)?|"
            r"batter(?:ed|s|ing)?|shoot(?:s|ing)?|shot|kick(?:ed|s|ing)?|slap(?:ped|s|ping)?|"
            r"throttl(?:e|ed|es|ing)|suffocat(?:e|ed|es|ing)|smother(?:ed|s|ing)?|drown(?:ed|s|"
            r"ing)?|rap(?:e|ed|es|ing)|hit(?:s|ting)?|headbutt(?:ed|s|ing)?|torture(?:d|s)?|"
            r"maim(?:ed|s)?|stamp(?:ed|s)? on|bottl(?:e|ed)|glass(?:ed)?|knock(?:ed)? out|shook|"
            r"shake|shaking|claw(?:ed|s)?|bury|burie[sd]|spat (?:in|on|at)|spit (?:in|on|"
            rf"at))\s+(?:me|you|u|us|him|her|them|{BODY}|(?:my|your|his|her|our) (?:mum|mom|dad|"
            r"sister|brother|boyfriend|girlfriend|husband|wife|partner|friend|dog|cat|family))\b",
            r"\b(?:smash(?:ed|es|ing)?|break(?:s|ing)?|broke|snap(?:ped|s)?|crack(?:ed|s)?|"
            r"burn(?:ed|t|s|ing)?|cut|slash(?:ed|es)?|twist(?:ed|s)?|bash(?:ed|es)?|cave(?:d)? "
            r"in|kick(?:ed)? in|stamp(?:ed)? on|squeez(?:e|ed|es|ing)|rip(?:ped|s)?|pull(?:ed|"
            rf"s)?|yank(?:ed|s)?|grab(?:bed|s)?)\s+{BODY}(?! off| out| back| up)\b",
            r"\b(?:had|pinned|held|shoved|pushed|threw|slammed|backed|forced) (?:me|her|him|us) "
            r"(?:up )?against (?:the|a) (?:wall|door|fridge|car|floor|bed|window)\b",
            r"\b(?:pulled|dragged|yanked|grabbed) (?:me|her|him|us) (?:\w+ )?by (?:my|her|his|"
            r"the) (?:hair|neck|throat|arm|arms|wrist|collar|legs?)\b",
            r"\brip (?:your|his|her) (?:\w+ )?(?:head|face|throat|arms?|legs?) off\b",
            r"\bmake (?:you|u|her|him|them) suffer\b",
        ),
        matches=(
            "he strangled me",
            "she said she'll slit your throat",
            "he broke my arm",
            "he pinned me against the wall",
            "he dragged me by my hair",
            "he said he'd rip your head off",
            "i'll make you suffer",
        ),
        misses=(
            "he would never hit me",
            "he broke my heart",
            "I hit my head on the shelf",
            "this commute is killing me",
        ),
        negatable=True,
        needs_person_subject=True,
    ),
    Rule(
        "violence.abuser_hurt",
        alternatives=(
            rf"\b{ABUSER}\b(?:\s+\w+){{0,3}}?\s+(?:{PAST_HARM}|used to (?:beat|hit|hurt))\s+(?:me|"
            r"us|my|our|the kids|the children|him|her|them)\b",
        ),
        matches=(
            "my ex punched me",
            "he used to beat us",
        ),
        misses=(
            "he never hit me",
            "she hits the gym every day",
        ),
        negatable=True,
    ),
    Rule(
        "violence.manhandled",
        alternatives=(
            rf"\b{ABUSER}\b(?:\s+\w+){{0,3}}?\s+(?:grabbed|pushed|threw|held|pinned|dragged|"
            r"shoved|yanked|squeezed|twisted)\s+(?:me|us)\s+(?:by|into|against|down|to the|over|"
            r"up against|hard|and|across|out|so|until|till|onto|on|off|round|around|through)\b"
            r"(?! (?:the |a )?swings?\b)",
            rf"\b{ABUSER}\b(?:\s+\w+){{0,3}}?\s+(?:grabbed|pinned|shoved|dragged|restrained|"
            r"cornered|tripped|spat at|spat on|bit|kneed|elbowed|kicked) (?:me|us)\b(?! (?:a|an|"
            r"some)\b)",
        ),
        matches=(
            "he grabbed me by the throat",
            "my ex cornered me in the kitchen",
        ),
        misses=(
            "she pushed me on the swings",
            "my brother kicked me a ball across the park",
        ),
        negatable=True,
    ),
    Rule(
        "violence.injury_given",
        # Injuries someone gave: "a bruise the size of a hand ... where he grabbed me".
        alternatives=(
            r"\b(?:bruises?|bruised|black eye|split lip|fat lip|cracked rib|broken (?:nose|rib|"
            r"ribs|arm|wrist|finger|jaw|tooth)|marks on my (?:neck|arm|arms|throat|face|wrist|"
            r"wrists))\b(?=[^.!?\n]{0,80}\b(?:he|she|they|him|her|where|from when|after)\b)",
        ),
        matches=("a bruise on my arm where he grabbed me",),
        misses=("I bruised my knee falling off my bike",),
    ),
    Rule(
        "violence.thrown_at",
        alternatives=(
            r"\bsleep with one eye open\b",
            r"\bwon'?t see it coming\b",
            r"\bhands? (?:round|around|on) (?:my|your|her|his) (?:neck|throat)\b",
            r"\bthrew (?:a|the|his|her|my) \w+ at (?:me|us|my|you)\b",
            r"\b(?:throw|throws|threw|throwing|chucked|hurled|lobbed) (?:things|stuff|plates|"
            r"bottles|glasses|cups|mugs|chairs|furniture|(?:a|the|his|her|my) (?:\w+ )?\w+) at "
            r"(?:me|us|my (?:head|face)|the kids)\b",
            r"\block(?:ed|s)? (?:me|us) (?:in|out)\b",
        ),
        matches=(
            "you'd better sleep with one eye open",
            "you won't see it coming",
            "his hands round my neck",
            "he threw a plate at me",
            "she throws things at me",
            "he locked me in the bedroom",
        ),
        misses=(
            "he threw a ball at me",
            "I locked myself out again",
        ),
    ),
    Rule(
        "violence.wall_punched",
        alternatives=(
            r"\bnext time it'?(?:ll| will) be (?:you|me|your \w+)\b",
            r"\b(?:punched|kicked|smashed|put his fist through|put her fist through) (?:a|the) "
            r"(?:wall|door|window)\b",
            r"\b(?:punched|kicked|smashed|put|made) (?:a )?holes? (?:in|through) (?:the|a|my|"
            r"our) (?:wall|door|window|plasterboard)\b",
        ),
        matches=(
            "next time it'll be you",
            "he punched the wall",
            "he put a hole in the door",
        ),
        misses=("he punched the air when they scored",),
    ),
    Rule(
        "violence.afraid_of_them",
        alternatives=(
            r"\b(?:scared|afraid|terrified|frightened|fear)\b[^.!?\n]{0,40}?\b(?:hurt|kill|"
            r"attack|hit)(?:s|ing)? (?:me|us|the kids)\b",
            r"\b(?:fear|scared|afraid) for my (?:life|safety)\b(?![^.!?\n]{0,30}\b(?:roads|"
            r"drivers|motorway|rollercoaster|ride|flight|plane|lol|haha)\b)",
        ),
        matches=(
            "I'm scared he'll hurt me",
            "I fear for my life",
        ),
        misses=("I fear for my life on these roads",),
    ),
    Rule(
        "violence.threatened",
        alternatives=(r"\bthreaten(?:s|ed|ing)? (?:me|us|to kill|to hurt)\b",),
        matches=("he threatened to kill me",),
        misses=("he threatened to leave",),
    ),
    Rule(
        "violence.assault_told",
        # Reported past events in more words: knocked down, bitten, scalded, forced.
        alternatives=(
            r"\b(?:scratch(?:ed|es)?|bit|bites|bitten|scald(?:ed|s)?|clawed|gouged|pinched|"
            r"elbowed|kneed|whacked|thumped|smacked|walloped|belted) (?:me|her|him|us|(?:my|her|"
            r"his) (?:face|arm|arms|neck|hand|hands|back|leg|legs|ear|lip|cheek|chest|stomach))\b",
            r"\b(?:knocked|pushed|shoved|threw|flung|dragged|kicked|punched|slapped|hit|beat|"
            r"thrown) (?:me|her|him|us) (?:to the (?:floor|ground)|down (?:the|on|onto|to)|over "
            r"(?:the|a)|out cold|unconscious|across the (?:room|floor|kitchen|hall)|into (?:the|"
            r"a) (?:wall|door|table|bookcase|cupboard|fridge|window|radiator|mirror|car|road))\b",
            r"\b(?:threw|throws|poured|chucked|flung) (?:boiling |hot |scalding )?(?:water|tea|"
            r"coffee|a drink|acid|bleach|oil|soup) (?:at|over|on) (?:me|us|her|him|my)\b",
            r"\bbruises (?:on|round|around|all over) (?:my|her|his) (?:neck|throat|face|wrists?|"
            r"upper arms?)\b",
            r"\bfingertip bruises\b",
            r"\bforc(?:ed|es|ing) (?:himself|herself) on (?:me|her)\b",
            r"\bsexually assault\w*",
            r"\b(?:didn'?t|did not|wouldn'?t|would not) stop when i (?:said no|told him to stop|"
            r"was crying)\b",
            r"\bmade me (?:have sex|sleep with (?:him|her)|do things)\b",
        ),
        matches=(
            "she bit me",
            "he knocked me to the floor",
            "he threw boiling water at me",
            "I have bruises on my neck",
            "I had fingertip bruises",
            "he forced himself on me",
            "he sexually assaulted me",
            "he didn't stop when i said no",
            "he made me have sex",
        ),
        misses=("the dog bit me",),
        needs_person_subject=True,
    ),
    Rule(
        "violence.violent_person",
        # What happened, in the user's words: A&E after he got angry, "he's violent".
        alternatives=(
            r"\b(?:he|she|they) (?:got|gets|was|were) (?:angry|mad|violent|"
            r"physical)\b[^.!?\n]{0,40}\bi (?:ended up|end up|was|'ve been|went) (?:in|to) "
            r"(?:a&e|hospital|casualty|the hospital)\b",
            r"\b(?:he|she|they|he'?s|she'?s|my (?:ex|husband|wife|partner|boyfriend|girlfriend|"
            r"dad|mum|mom|father|mother|stepdad|brother))\b(?: \w+){0,2}? (?:is|was|gets|got|"
            r"can be|'s|becomes|turns|been) (?:\w+ )?(?:violent|physical with (?:me|us|the kids)|"
            r"handy with (?:his|her) fists)\b",
            r"\b(?:he|she)(?:'s| is| was| gets| can get| got| has been|'s been) (?:\w+ "
            r")?violent\b(?! (?:on the (?:pitch|field|court|ice)|in (?:the )?(?:game|games|ring|"
            r"match|film|movie)))",
        ),
        matches=(
            "he got angry and i ended up in a&e",
            "my ex can be violent",
            "she's been violent before",
        ),
        misses=("he has never been violent",),
        negatable=True,
    ),
    Rule(
        "violence.unsafe_at_home",
        # Not safe at home; held under water.
        alternatives=(
            r"\b(?:i'?m not|i am not|i don'?t feel|i do not feel|i no longer feel|we'?re not|we "
            r"are not|i never feel|the kids aren'?t|the kids are not) (?:\w+ )?safe (?:at home|"
            r"in (?:my|our|this) (?:own )?(?:home|house|flat)|with (?:him|her)|around (?:him|"
            r"her)|when (?:he|she)'?s(?: \w+)?)\b(?![^.!?\n]{0,30}\b(?:cold|flu|bug|virus|"
            r"covid|germs|lol|haha)\b)",
            r"\b(?:held|holding|pushed|forced|holds|pushes) (?:me|her|him|my head|her head) "
            r"(?:under|underwater|under the water)\b",
        ),
        matches=(
            "I don't feel safe at home",
            "he held my head under the water",
        ),
        misses=("I'm not safe at home with this cold lol",),
    ),
    Rule(
        "violence.pushed_or_marked",
        alternatives=(
            rf"\b{ABUSER}\b(?:\s+\w+){{0,2}}?\s+(?:pushed|shoved) (?:me|us|her|him)\b(?! (?:to|"
            r"towards|into (?:applying|doing|taking|going|seeing|getting)|on the swings?|around "
            r"in)\b)",
            r"\b(?:(?:put|puts|putting) (?:his|her|their) hands|(?:laid|lays|laying|lay) (?:a "
            rf")?(?:hand|finger)) on (?:me|her|him|us|the kids|{FAMILY})\b",
            r"\b(?:left|leaving|leaves) (?:marks|bruises|a mark|a bruise|fingerprints|scratches) "
            r"(?:on|all over|round|around) (?:my|her|his) (?:neck|throat|face|arms?|wrists?|back|"
            r"legs?|body|chest)\b",
        ),
        matches=(
            "he pushed me down the stairs",
            "he put his hands on me",
            "he left bruises on my arms",
        ),
        misses=("my mum pushed me to apply for the job",),
        negatable=True,
        needs_person_subject=True,
    ),
    Rule(
        "violence.sorry_for_hurting",
        # an apology that admits the violence ("I didn't mean to hurt you, you know how I get")
        alternatives=(
            r"\bdidn'?t mean to (?:hurt|hit|push|grab|shove) (?:you|u)\b(?=[^\n]{0,80}\b(?:how "
            r"i get|won'?t happen again|push me|wind me up|made me)\b)",
        ),
        matches=("I didn't mean to hurt you, you know how I get",),
        misses=("I didn't mean to hurt you, I'm sorry I forgot your birthday",),
    ),
)
