"""The children hurt, handled roughly, left alone or driven drunk.  Hurting a child is
violence too: those rules come in pairs, one of each kind, on the same wordings."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule, of_two_kinds
from flows.analysis.danger.vocabulary import FAMILY, KNOWS_THE_SCHOOL, PHOTO_OF_THE_SCHOOL

_CHILDREN_HURT = (
    r"\b(?:hurt|hurts|hurting|hit|hits|hitting|beat|beats|beating|harm|harms|harming|"
    r"smack|smacks|smacking|shake|shakes|shook|kill)\s+(?:(?:me|you|us|her|him) and "
    rf")?{FAMILY}\b",
)

# Hurting a child: "he's been hitting their little boy".
_CHILD_HIT = (
    r"\b(?:hurt|hurts|hurting|hit|hits|hitting|beat|beats|beating|beaten|harm|harming|"
    r"harmed|smack\w*|slap\w*|shake|shakes|shook|shaking|punch\w*|kick\w*|chok\w*|"
    r"whack\w*|spank\w*|throttl\w*|strangl\w*|belted) (?:a|the|their|his|her|my|our|"
    r"your) (?:little |baby |young |\w+ year old )?(?:boy|girl|son|daughter|kid|kids|"
    r"child|children|baby|toddler|stepson|stepdaughter)\b(?!'s|')",
    rf"\bmake sure {FAMILY} (?:pay|suffer)\b",
    rf"\b{FAMILY} (?:will|'ll|are going to|is going to|are gonna) (?:pay for (?:it|this|"
    r"that|what you)|suffer|pay the price)\b",
)

# Rough handling: "grabbed my son by the arm", marks on the children.
_HANDLED_ROUGHLY = (
    r"\b(?:grab\w*|yank\w*|drag\w*|shov\w*|squeez\w*|pinch\w*|throw\w*|threw) "
    rf"(?:{FAMILY}|the kids|the baby) (?:by (?:the|his|her|their) (?:arm|arms|hair|neck|"
    r"collar|throat|ear|wrist)|so hard|against (?:the|a)|across (?:the|a) (?:room|floor)|"
    r"into (?:the|a) (?:wall|door|car)|down (?:the|on))\b",
    rf"\b(?:bruises|marks) on {FAMILY}\b",
)

RULES: tuple[Rule, ...] = (
    *of_two_kinds(
        Rule(
            "child_safety.hurt",
            alternatives=_CHILDREN_HURT,
            matches=(
                "he hits the kids",
                "he said he'd hurt me and the kids",
            ),
            misses=("he would never hurt the kids",),
            negatable=True,
        ),
        "violence.children_hurt",
    ),
    *of_two_kinds(
        Rule(
            "child_safety.child_hit",
            alternatives=_CHILD_HIT,
            matches=(
                "he's been hitting their little boy",
                "I'll make sure the kids pay",
                "the kids will suffer",
            ),
            misses=(
                "he never smacked our son",
                "he hit the boy's ball over the fence",
            ),
            negatable=True,
        ),
        "violence.child_hit",
    ),
    *of_two_kinds(
        Rule(
            "child_safety.handled_roughly",
            alternatives=_HANDLED_ROUGHLY,
            matches=(
                "he grabbed my son by the arm",
                "there were marks on my daughter",
            ),
            misses=("he'd never grab the baby so hard",),
            negatable=True,
        ),
        "violence.children_handled_roughly",
    ),
    Rule(
        "child_safety.left_alone",
        alternatives=(
            rf"\bleft {FAMILY} (?:alone|on (?:their|his|her) own|home alone|in the car)\b",
            rf"\b(?:drunk|drink[- ]driving|drove drunk|high)\b[^.!?\n]{{0,30}}\bwith {FAMILY}",
        ),
        matches=(
            "he left the kids home alone",
            "he was drunk with the kids",
        ),
        misses=("he left the kids at school",),
    ),
    Rule(
        "child_safety.drunk_driving",
        alternatives=(
            rf"\b(?:drive|drives|drove|driving) (?:\w+ ){{0,2}}?(?:{FAMILY}|the kids)(?: "
            r"\w+){0,3}? (?:drunk|high|stoned|after drinking|over the limit|off his face|off "
            r"her face)\b",
            r"\b(?:take|taking|took)(?<!you take)(?<!you taking)(?<!you took)(?<!you ever "
            rf"take)(?<!u ever take) (?:the kids|{FAMILY}|them) (?:off|away from) (?:you|u|"
            r"me)\b(?! for\b)",
        ),
        matches=(
            "he drove the kids home drunk",
            "he'll take the kids off you",
        ),
        misses=("he took the kids off me for the afternoon",),
    ),
    Rule(
        "child_safety.locked_in",
        alternatives=(
            rf"\block(?:s|ed|ing)? (?:{FAMILY}|the kids) (?:in|out)\b(?=[^.!?\n]{{0,40}}\b(?:when "
            r"(?:he|she)(?:'s| is| gets)? (?:angry|drunk|mad|in a (?:mood|rage))|for hours|all "
            r"(?:night|day)|as (?:a )?punishment|without food|in the dark)\b)",
        ),
        matches=("he locks the kids in when he's drunk",),
        misses=("he locked the kids out of the kitchen while he cooked",),
    ),
    Rule(
        "child_safety.marks_and_school",
        # Marks on a child, a secret kept from the other parent, passports, driving drunk
        # with them, taken from school, medicine withheld, the school known or photographed.
        alternatives=(
            rf"\b(?:{FAMILY}|my boy|my girl|our boy|our girl|(?:my|our|the) little "
            r"one)\b[^.!?\n]{0,60}?\b(?:finger ?marks|marks|bruises?|bruised|burns?|scratches|"
            r"cuts|black eye|injur\w+)\b",
            r"\bsecret from (?:mummy|mum|mommy|mom|daddy|dad|your mum|your dad)\b",
            r"\b(?:has|have|kept|keeps|took|taken|got|hiding|hid|won'?t give (?:me )?back) "
            r"(?:her|his|their|the kids'?|the children'?s|my (?:son|daughter)'s|our (?:son|"
            r"daughter)'s) passports?\b",
            r"\b(?:drunk|pissed|drink)[- ]driv\w*\b(?=[^\n]{0,60}\b(?:kids|children|them in "
            r"the back|in the back|boys|girls|baby|son|daughter)\b)",
            r"\bdriv\w* (?:pissed|drunk|wasted|high|steaming|hammered|off (?:his|her) (?:face|"
            r"head))\b(?=[^\n]{0,60}\b(?:kids|children|them|in the back|boys|girls|baby|son|"
            r"daughter)\b)",
            r"\b(?:took|taken|picked up|collected|snatched|grabbed) (?:the baby|the kids|the "
            r"children|our \w+|my \w+|them|her|him) (?:from|out of) (?:nursery|school|daycare|"
            r"childcare|class|the childminder'?s?)\b[^\n]{0,40}\b(?:without|isn'?t answering|"
            r"not answering|won'?t answer|didn'?t tell|no one knew)\b",
            r"\btr(?:y|ied|ying|ies) to take \w+ (?:out of|from) (?:class|school|nursery|the "
            r"playground)\b",
            r"\b(?:back|bring (?:them|him|her) back|return (?:them|him|her)) when i (?:feel like "
            r"it|want|'m ready|am ready|decide)\b",
            r"\bdoesn'?t need (?:his|her|their) (?:inhaler|medicine|meds|medication|epipen|"
            r"insulin|tablets)\b",
            r"\b(?:come|coming) (?:round |over )?(?:and )?(?:get|take|grab|collect) (?:them|the "
            r"kids|the children) (?:myself|himself|herself|by force)\b",
            KNOWS_THE_SCHOOL,
            PHOTO_OF_THE_SCHOOL,
            # a threat that takes the child in: "neither of you", "especially with kids in the back"
            rf"\b{FAMILY}\b[^\n]{{0,60}}\b(?:neither|both|none|all) of (?:you|u) (?:gets?|makes?|"
            r"will|won'?t|ever)\b",
            r"\b(?:especially|even) (?:with )?(?:the )?(?:kids|children|baby) in the (?:back|"
            r"car)\b",
        ),
        matches=(
            "my boy came home with marks on his arm",
            "it's our secret from mummy",
            "he's taken her passport",
            "he was drink-driving with the kids",
            "he was driving drunk with the kids in the back",
            "he took the kids from school without telling me",
            "he tried to take Ella out of class",
            "I'll bring them back when i feel like it",
            "he says she doesn't need her inhaler",
            "I'll come and get them myself",
            "I know which school",
            "a photo of the school gate",
            "the kids and you, neither of you gets home",
            "especially with the kids in the back",
        ),
        misses=("I took the kids from school early for the dentist",),
    ),
    Rule(
        "violence.child_marked",
        # a child with marks on them
        alternatives=(
            rf"\b(?:{FAMILY}|my boy|my girl|our boy|our girl|(?:my|our|the) little "
            r"one)\b[^.!?\n]{0,60}?\b(?:finger ?marks|bruises?|bruised|burns?|black eye)\b",
        ),
        matches=("my little one has bruises",),
        misses=("in the film the little one had a black eye",),
    ),
)
