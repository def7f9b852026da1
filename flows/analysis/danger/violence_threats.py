"""Threats of violence: what someone says they will do."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule
from flows.analysis.danger.vocabulary import (
    BULLET,
    FAMILY,
    HARM_VERB,
    MODAL,
    PEOPLE,
    SEE_ME_COMING,
    WEAPON_BROUGHT,
)

RULES: tuple[Rule, ...] = (
    Rule(
        "violence.will_harm",
        alternatives=(rf"\b{MODAL}\s+(?:\w+\s+){{0,2}}?{HARM_VERB}\s+{PEOPLE}\b",),
        matches=(
            "he said he'd kill me",
            "i'm going to break your legs",
        ),
        misses=(
            "he would never hurt me",
            "my boss will kill me if I'm late",
        ),
        negatable=True,
        needs_person_subject=True,
    ),
    Rule(
        "violence.quoted_threat",
        # A threat in quotes: she'll 'end me', he said he'd "sort me out".
        alternatives=(rf"\b{MODAL}\s+['\"]{HARM_VERB}\s+{PEOPLE}\b",),
        matches=("she said she'll 'end me'",),
        misses=("she said she'll 'end it' with him",),
        negatable=True,
    ),
    Rule(
        "violence.cant_have_you",
        alternatives=(
            rf"\bcan'?t have (?:you|u|them|him|her|{FAMILY}|the kids),? (?:then )?(?:no ?one|"
            r"nobody|no-one)\b",
        ),
        matches=("if I can't have you, no one can",),
        misses=("I can't have you over this weekend, nobody's free",),
    ),
    Rule(
        "violence.dead_man",
        alternatives=(
            r"\b(?:you'?re|you are|he'?s|he is|she'?s|she is|is) (?:a )?dead (?:man|woman|meat)\b",
            r"\byou'?re (?:so |fucking )?dead\b(?! to)",
        ),
        matches=(
            "you're a dead man",
            "you're so dead",
        ),
        misses=("you're dead to me",),
    ),
    Rule(
        "violence.dead_when",
        # "ur ded when i find u"; bruises dated to a day
        alternatives=(
            r"\b(?:you'?re|your|you are) (?:so |fucking |literally )?dead (?:when|if|once|the "
            r"minute|the second|the moment)\b",
            r"\b(?:bruises?|marks) (?:all )?(?:on|round|around) my (?:arms?|neck|throat|face|"
            r"legs?|wrists?|back|ribs)\b[^.!?\n]{0,20}?\bfrom (?:saturday|sunday|monday|"
            r"tuesday|wednesday|thursday|friday|last night|the weekend|the other night|yesterday|"
            r"him|her)\b",
        ),
        matches=(
            "ur ded when i find u",
            "bruises on my arms from saturday",
        ),
        misses=("my phone is dead when I need it most",),
    ),
    Rule(
        "violence.watch_your_back",
        alternatives=(r"\bwatch (?:your|ur) back\b",),
        matches=("you'd better watch your back",),
        misses=("I've got your back",),
    ),
    Rule(
        "violence.burn_down",
        alternatives=(
            r"\bburn\s+(?:\w+\s+){0,3}?(?:house|home|flat|place|car)\s+down\b",
            r"\bburn (?:it|you) down\b",
        ),
        matches=(
            "I'll burn your house down",
            "I'll burn it down",
        ),
        misses=("I watched a film where they burn the house down",),
    ),
    Rule(
        "violence.put_in_hospital",
        alternatives=(
            r"\bput (?:you|u|me) in (?:the )?(?:hospital|ground|grave)\b",
            r"\bbeat the (?:shit|crap|hell|life) out of\b",
        ),
        matches=(
            "I'll put you in the hospital",
            "he beat the shit out of me",
        ),
        misses=("they put me in a ward overnight for tests",),
    ),
    Rule(
        "violence.see_what_i_do",
        # Threats: "see what I do", faces ruined, visits paid, not making it to court.
        alternatives=(
            r"\b(?:and|then|just) (?:see|watch) what i (?:do|'ll do|will do|'m capable of)\b",
            r"\b(?:ruin|rearrange|mess up|smash in|kick in|bust|split|bloody|mark|cut up|carve "
            r"up) (?:your|ur|his|her|their) (?:pretty |little |new |stupid |ugly )?(?:face|head|"
            r"nose|teeth|jaw|legs|kneecaps|eyes?|lip)\b",
            r"\byou (?:won'?t|will not|aren'?t going to|ain'?t gonna) (?:live|survive) (?:to|"
            r"till|until|long enough|past|through)\b",
            r"\byou won'?t make it to (?:court|the court date|the hearing|the trial|your "
            r"birthday|christmas|the weekend)\b",
            r"\b(?:watch|see|wait and see|wait till you see) what happens to (?:your|ur|him|her|"
            r"them)\b",
            r"\b(?:your|ur) (?:new )?(?:boyfriend|girlfriend|fella|man|bloke|partner|husband|"
            r"wife|mate|friend)(?:'s| is) (?:going to|gonna|about to) get a (?:little |nasty "
            r")?visit\b",
            r"\b(?:i'?ll|i will|i'?m going to|i'?m gonna|gonna) (?:be )?pay(?:ing)? (?:him|her|"
            r"them|(?:your|ur) (?:new )?(?:boyfriend|girlfriend|fella|man|bloke|partner|husband|"
            r"wife)) a (?:little |nasty )?visit\b",
            r"\b(?:scared|afraid|frightened|terrified|fear) (?:of )?what (?:he|she|they)(?:'ll| "
            r"will| would|'d| might| could) do (?:when|once)\b(?![^.!?\n]{0,60}(?:\bhaha|"
            r"\blol\b|😂|🤣))",
        ),
        matches=(
            "go on, just see what i do",
            "I'll rearrange your face",
            "you won't live to see christmas",
            "you won't make it to court",
            "wait and see what happens to your car",
            "your new boyfriend's going to get a visit",
            "I'm going to pay him a little visit",
            "I'm scared of what he'll do when he finds out",
        ),
        misses=("I'm scared of what he'll do when he finds out I ate his cake haha",),
    ),
    Rule(
        "violence.door_kicked_in",
        # doors kicked in, a weapon brought round, put in the ground, dragged home
        alternatives=(
            r"\b(?:kick|kicked|kicking|boot|booted|punch|punched|smash|smashed|break|broke|bash|"
            r"bashed)\s+(?:it|(?:the|your|ur|my|her|his|our) (?:front |back )?(?:door|"
            r"window))\s+in\b",
            WEAPON_BROUGHT,
            r"\bput (?:you|u|him|her|them) in (?:the ground|a grave|the grave|hospital|a box|a "
            r"wheelchair)\b",
            r"\bsix (?:feet|foot) under\b",
            r"\b(?:i'?ll|i will|ill|gonna|going to|he'?ll|he will|she'?ll)\s+(?:\w+\s+)?drag "
            r"(?:you|u|her|him)\b",
            r"\btake everything from you\b[^\n]{0,80}\bhope (?:she|he|they|you) sleeps? "
            r"(?:well|tight|soundly)\b",
            r"\btell (?:him|her|them|your (?:new )?\w+) to watch (?:his|her|their|your) back\b",
        ),
        matches=(
            "he kicked the door in",
            "I'm coming round with a knife",
            "I'll put you in the ground",
            "you'll be six feet under",
            "I'll drag you out of there",
            "I'll take everything from you. hope she sleeps well",
            "tell your new fella to watch his back",
        ),
        misses=("he would never kick the door in",),
        negatable=True,
    ),
    Rule(
        "violence.capable_of",
        alternatives=(
            r"\b(?:you|u) know what i'?m capable of\b",
            r"\bsee what happens to (?:the|your|ur|my|our) (?:dog|cat|pets?|kids?|children|car|"
            r"house|mum|mom|family|horse)\b",
            r"\bscared of me\b[^\n]{0,25}?\byou should be\b",
            SEE_ME_COMING,
            r"\bdrag (?:you|u|her|him|me) (?:\w+ ){0,3}?by (?:the|your|ur|her|his|my) (?:hair|"
            r"neck|throat|arm|collar)\b",
            *BULLET,
            r"\bneither of (?:you|u) (?:gets?|makes?|will get|will make|ever gets?) (?:it|there|"
            r"home)\b",
            r"\byou won'?t like (?:how|what happens|what i do)\b",
        ),
        matches=(
            "you know what i'm capable of",
            "see what happens to the dog",
            "scared of me? you should be",
            "you won't see me coming",
            "I'll drag you out by your hair",
            "nothing stops a bullet",
            "there's a bullet with your name on it",
            "neither of you gets home",
            "you won't like what happens",
        ),
        misses=("I know what I'm capable of at work",),
    ),
)
