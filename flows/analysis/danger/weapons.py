"""Weapons: had, kept, shown, pointed, brought.  A weapon used against someone is
violence too: those rules come in pairs, one of each kind, on the same wordings."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule, of_two_kinds
from flows.analysis.danger.vocabulary import BULLET, WEAPON, WEAPON_BROUGHT, WEAPON_DET

_POINTED_AT = (
    r"\b(?:showed|showing|shows|pointed|pointing|points|waved|waving|held|holding|pulled|"
    r"pulling|came at|coming at|threatened|threatening|chased|chasing|went for) (?:me|us|"
    rf"you|her|him|them|my \w+)\b[^.!?\n]{{0,25}}?\b{WEAPON}\b",
    r"\b(?:pulled|pulls|got|gets|took|takes|waved|waving|pointed|pointing|held|holding|"
    r"swung|swinging|brandished|brandishing|came at (?:me|us|her|him) with) (?:out )?"
    rf"(?:a|the|his|her|my) {WEAPON} (?:out )?(?:on|at|to) (?:me|us|you|her|him|them)\b",
)

# a weapon left where the user will find it
_LEFT_IN_THINGS = (
    rf"\b{WEAPON} (?:stuck|left|jammed|driven|stabbed) (?:in|into|through) (?:my|your|ur|"
    r"the) (?:tyres?|tires?|door|car|seat|bed|pillow|windscreen)\b",
)

RULES: tuple[Rule, ...] = (
    Rule(
        "weapon.has_one",
        alternatives=(
            r"\b(?:has|have|had|'ve|got|get|getting|bought|buying|own|owns|keep|keeps|kept|carry|"
            r"carries|carrying|brought|bring|pulled|pulls|waved|waving|pointed|pointing|grabbed|"
            r"grabbing|showed|holding|held|hides|hide|hidden|hid|loaded|cleaning|sharpening|with|"
            r"remember|know where|taken|took|takes|taking|posting|posts|posted|pics of|photos "
            rf"of)\s+(?:me|us|you|is|are)?\s*(?:{WEAPON_DET}\s+){{0,3}}{WEAPON}\b(?! set| block| "
            r"and fork| skills)",
        ),
        matches=(
            "he has a gun",
            "he keeps a hunting knife in the car",
        ),
        misses=(
            "he doesn't have a gun",
            "can u bring the big knife for the watermelon",
        ),
        negatable=True,
    ),
    *of_two_kinds(
        Rule(
            "weapon.pointed_at",
            alternatives=_POINTED_AT,
            matches=(
                "he came at me with a knife",
                "he pulled a knife on me",
            ),
            misses=(
                "he never pulled a knife on me",
                "in the game he pulled a gun on me",
            ),
            negatable=True,
        ),
        "violence.weapon_pointed_at",
    ),
    Rule(
        "weapon.at_body",
        alternatives=(
            rf"\b{WEAPON}\s+(?:to|at|against|in|under)\s+(?:my|your|his|her|the)\s+(?:head|throat|"
            r"face|neck|chest|pillow|bed|seat)\b",
        ),
        matches=(
            "he held a knife to my throat",
            "there's a knife under my pillow",
        ),
        misses=("the knife at the bed and breakfast was blunt",),
    ),
    Rule(
        "violence.weapon_at_body",
        alternatives=(
            rf"\b{WEAPON}\s+(?:to|at|against|into)\s+(?:my|your|his|her)\s+(?:head|throat|face|"
            r"neck|chest|back|stomach|ribs)\b",
        ),
        matches=("he held a knife to my throat",),
        misses=("in the film he puts a gun to her head",),
    ),
    Rule(
        "weapon.shoot_or_stab",
        alternatives=(r"\b(?:shoot|stab)(?:s|ed|ing)?\s+(?:you|me|him|her|us|them)\b",),
        matches=("I'll stab you",),
        misses=(
            "Shoot me a text when you get home",
            "she stabbed him in the back at work",
        ),
    ),
    Rule(
        "weapon.what_i_keep",
        alternatives=(
            r"\b(?:remember|you know|don'?t forget|think about) what i (?:keep|have|'ve got|got|"
            r"keep hidden) (?:in|under|behind|upstairs|in the)\b",
        ),
        matches=("remember what i keep under the bed",),
        misses=("remember what i keep forgetting",),
    ),
    Rule(
        "weapon.ready",
        alternatives=(
            rf"\b(?:my|the|this|that|his|her) {WEAPON}(?:'s| is) (?:\w+ )?(?:sharp|loaded|ready|"
            r"waiting|still (?:in|under|there))\b",
        ),
        matches=("the gun is loaded",),
        misses=("the knife is sharp, careful when you chop the onions",),
    ),
    Rule(
        "weapon.kept_somewhere",
        # A weapon kept somewhere: "Dad's old shotgun is still in the cabinet", "the bat in
        # the boot", "a baseball bat by the bed".
        alternatives=(
            rf"\b{WEAPON}(?:'s| is| are)? (?:still |always |now |kept )?(?:in|under|by|behind|"
            r"beside|next to|on top of) (?:the|his|her|my|our|their|your) (?:\w+ )?(?:cabinet|"
            r"boot|car|bed|pillow|bedside drawer|wardrobe|glovebox|glove box|shed|garage|van|"
            r"door|seat|mattress|safe|loft|jacket|coat|bag|pocket)\b",
            r"\b(?:have|has|keep|keeps|kept|got|'ve got|still have|carries|carry) (?:a|the|his|"
            r"her|my) (?:cricket |baseball |metal |wooden |golf )?(?:bat|club|iron bar|bar|poker|"
            r"cosh|knuckle duster|knuckledusters?) (?:in|under|by|behind|beside|next to) (?:the|"
            r"his|her|my|our) (?:\w+ )?(?:boot|car|bed|door|seat|van|cabinet|pillow)\b",
        ),
        matches=(
            "dad's old shotgun is still in the cabinet",
            "he keeps a baseball bat by the bed",
        ),
        misses=(
            "he doesn't keep a bat in the car",
            "the cricket bat is in the boot for practice",
        ),
        negatable=True,
    ),
    Rule(
        "weapon.readied_for_you",
        alternatives=(
            r"\b(?:sharpened|sharpening|cleaned|cleaning|oiled|loaded|bought|got) (?:the|my|a|"
            rf"his) (?:big |new |old |sharp )?(?:\w+ )?{WEAPON}\b[^\n]{{0,40}}\b(?:thought of you|"
            r"thinking of you|for you|just for you|with your name|just saying|you know why)\b",
        ),
        matches=("sharpened the big knife. thought of you",),
        misses=("I sharpened the knife for you, the turkey is ready",),
    ),
    Rule(
        "weapon.brought_round",
        alternatives=(WEAPON_BROUGHT,),
        matches=("I'm coming round with the bat",),
        misses=("I'm coming round with the bat and ball for cricket practice",),
    ),
    Rule(
        "weapon.still_there_or_shown",
        alternatives=(
            rf"\b{WEAPON}(?:'s| is) still (?:in|under|on|there|where)\b",
            *BULLET,
            r"\b(?:sent|sends|posted|posts) (?:me )?(?:a )?(?:photo|pic|picture|snap|video|"
            rf"story) of (?:his|her|a|the|their) (?:\w+ )?{WEAPON}\b",
        ),
        matches=(
            "the gun is still in his car",
            "nothing stops a bullet",
            "there's a bullet with your name on it",
            "he sent me a photo of his knife",
        ),
        misses=("he sent me a picture of the knife set",),
    ),
    *of_two_kinds(
        Rule(
            "weapon.left_in_things",
            alternatives=_LEFT_IN_THINGS,
            matches=("there was a knife stuck in my tyre",),
            misses=("a knife stuck in the door in that horror film, the plot was mad",),
        ),
        "violence.weapon_left_in_things",
    ),
)
