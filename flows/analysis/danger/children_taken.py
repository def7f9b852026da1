"""The children taken, kept or held back as a threat."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule
from flows.analysis.danger.vocabulary import FAMILY, KIDS

RULES: tuple[Rule, ...] = (
    Rule(
        "child_safety.never_see_them",
        alternatives=(
            rf"\bnever see {FAMILY}(?: again)?\b",
            r"\bnever see (?:them|him|her) again\b",
        ),
        matches=(
            "you'll never see the kids again",
            "you'll never see them again",
        ),
        misses=("we never see them at weekends",),
    ),
    Rule(
        "child_safety.take_and_disappear",
        alternatives=(
            r"(?<!you )(?<!you ever )\b(?:take|taking|took|snatch|snatching|keep|"
            rf"keeping)\s+{FAMILY}\b[^.!?\n]{{0,40}}?\b(?:and (?:disappear|run|leave|go|vanish)|"
            r"away|abroad|out of the country|for good|where you|you'?ll never|won'?t find)",
        ),
        matches=("she threatened to take the kids and disappear",),
        misses=("did you take the kids away for the weekend?",),
    ),
    Rule(
        "child_safety.threat_to_take",
        alternatives=(
            rf"\bthreaten(?:s|ed|ing)? to (?:\w+\s+){{0,6}}?(?:take|snatch|keep)\s+{FAMILY}",
            r"\b(?:i'?ll|he'?ll|she'?ll|will|going to) take (?:them|him|"
            r"her)\b[^.!?\n]{0,40}?\b(?:never (?:find|see|get)|disappear|abroad|away)\b",
            rf"\bnever (?:get|see) (?:them|{FAMILY}) back\b",
            r"\bnever find (?:us|them)\b",
        ),
        matches=(
            "he threatened to take the kids",
            "I'll take them and you'll never find us",
            "you'll never get the kids back",
            "you'll never find us",
        ),
        misses=("I'll take them to the park",),
    ),
    Rule(
        "child_safety.not_coming_back",
        alternatives=(
            rf"\b{KIDS}\s+(?:won'?t|will not|aren'?t|are not|not)\s+(?:be\s+)?(?:coming|come|"
            r"going|go)\s+(?:back|home)\b",
            r"\b(?:you )?won'?t (?:ever )?find (?:us|them)\b",
        ),
        matches=(
            "the kids won't be coming back",
            "you won't find us",
        ),
        misses=("the kids are coming back on sunday",),
    ),
    Rule(
        "child_safety.kept_away",
        # The children named first, then "they won't be coming back", "you'll never see them".
        alternatives=(
            rf"\b{KIDS}\b[^\n]{{0,100}}?\b(?:they|he|she)(?:'re| are| is|'s)? (?:\w+ )?(?:won'?t|"
            r"will not|aren'?t|are not|isn'?t|is not|not) (?:ever )?(?:be )?(?:coming|come|going|"
            r"go) (?:back|home)\b",
            r"\b(?:take|taking|took|takes|move|moving|keep|keeping|hide|hiding|hid)\s+"
            rf"(?:{FAMILY}|them|him|her|the kids)\b[^.!?\n]{{0,60}}?\b(?:abroad|overseas|out of "
            r"the country|for good|stay (?:a while|there|for good|permanently)|not (?:be "
            r")?coming back|won'?t (?:be )?(?:coming|come) back|never (?:see|find)|you'?ll never|"
            r"won'?t find|can'?t stop me|without telling you|fight it)\b",
            rf"\bcan'?t have {FAMILY},? (?:then )?(?:no ?one|nobody|no-one)\b",
            r"\bcan'?t have (?:the kids|them),? (?:then )?(?:no ?one|nobody|no-one)\b",
            r"\bdon'?t bother looking for (?:us|them|him|her)\b",
            r"\bdon'?t bother (?:looking|searching|trying to find (?:us|them))\s*(?:[.!]|$)",
            rf"\b{KIDS} (?:are|is|'re|'s) (?:staying )?with me (?:now )?(?:and|,)? ?(?:that'?s "
            r"how it'?s (?:staying|going to stay)|for good|permanently|they'?re staying)\b",
            rf"\b(?:try|good luck) (?:getting|finding|seeing) (?:them|the kids|{FAMILY}) (?:back|"
            r"now)\b",
            r"\b(?:won'?t|will not|refus\w* to|not going to|isn'?t going to|never going to) "
            rf"(?:give|bring|hand|send|return) (?:{FAMILY}|them|him|her|the kids) (?:back|home)\b",
            r"\b(?:packed|hidden|hid|taken|took|stole|kept|keeping|got hold of) (?:the kids'?|"
            r"their|the children'?s|his|her|both|all the) passports?\b",
            rf"\bgood luck (?:finding|getting|seeing) (?:them|us|the kids|{FAMILY})\b",
            rf"\bmake sure {FAMILY} (?:never|don'?t|won'?t) (?:see|know|hear from|remember) "
            r"(?:you|u)\b",
            rf"\b(?:hiding|hid|hidden|hides) {FAMILY}\b",
            rf"\b(?:keeping|kept|keeps|keep) {FAMILY} (?:from (?:me|you|us)|away from)\b",
            r"\bwon'?t (?:tell|say) (?:me|you) where (?:the kids|the children|they|my \w+|our "
            r"\w+) (?:are|is)\b",
            r"\b(?:you'?ll|you will|you'?re going to|you won'?t) (?:never|not) (?:see|get) "
            rf"{FAMILY} (?:again|back)\b",
            rf"\b(?:pick(?:ed|ing)? up|collect(?:ed|ing)?|took|taken) {FAMILY} (?:from school|"
            r"early)\b[^.!?\n]{0,40}?\bwithout (?:telling|asking)\b",
        ),
        matches=(
            "the kids are with me. they won't be coming home",
            "I'm taking the kids abroad",
            "if I can't have the kids, no one can",
            "can't have them, nobody can",
            "don't bother looking for us",
            "don't bother looking.",
            "the kids are staying with me for good",
            "good luck getting them back",
            "I won't bring the kids back",
            "she's hidden the kids' passports",
            "good luck finding us",
            "I'll make sure the kids never see you",
            "she's hiding the children",
            "he's keeping my son from me",
            "he won't tell me where the kids are",
            "you'll never see your daughter again",
            "he picked up the kids from school without telling me",
        ),
        misses=(
            "I'll bring the kids back at six",
            "good luck at the kids' sports day",
        ),
    ),
    Rule(
        "child_safety.said_sideways",
        # "the baby's fine. for now.", "not bringing the baby back", "see if they can stop me".
        alternatives=(
            rf"\b{KIDS}(?:'s| is| are|'re) (?:fine|ok|okay|safe|alright|all right)\s*[.!,-]*\s*"
            r"(?:for now|at the moment|for the moment|for today|so far)\s*(?:[.!]|$)",
            r"\b(?:not|isn'?t|won'?t|will not|never|refus\w* to) (?:be )?(?:bringing|giving|"
            r"handing|sending|returning|bring|give|hand|send|return) (?:the (?:baby|kids?|"
            r"children|boys|girls)|them|him|her|my \w+|our \w+) (?:back|home)\b(?! (?:late|early|"
            r"until|till|at|by|before|tonight|today|on time|in time|for (?:tea|dinner|lunch))\b)",
            rf"\b(?:take|grab|snatch|keep) (?:her|him|them|{FAMILY})\b[^\n]{{0,80}}\bstop me\b",
            rf"\bstop me\b[^\n]{{0,60}}\b(?:take|grab|snatch|keep) (?:her|him|them|{FAMILY})\b",
            r"\b(?:scared|afraid|frightened|terrified) (?:to|of) (?:take|taking|send|sending|"
            rf"leave|leaving|let|letting) {FAMILY}\b[^.!?\n]{{0,50}}\bin case (?:he|she|they)\b",
            r"\b(?:packed|packing) (?:up )?(?:his|her|their|the (?:baby|kids)'?s?) (?:whole )?"
            r"(?:room|things|stuff|clothes|bags?)\b(?=[^\n]{0,80}\b(?:not|never|won'?t|"
            r"abroad)\b)",
        ),
        matches=(
            "the baby's fine. for now.",
            "I'm not bringing the baby back",
            "I'll take him and see if you can stop me",
            "try and stop me, I'll keep them",
            "I'm scared to leave the kids with him in case he snaps",
            "he's packed her whole room, says she's not coming back",
        ),
        misses=(
            "I'm not bringing the kids back late",
            "the baby's fine, just a cold",
        ),
    ),
    Rule(
        "child_safety.held_over_you",
        alternatives=(
            r"\byou(?:'ll| will) never see (?!me\b|us\b|it\b|this\b|that\b|my money\b)\w+ again\b",
            rf"\bkeeping (?:{FAMILY}|them|him|her|\w+) (?:until|till|unless) you\b",
            rf"\b(?:{FAMILY}|the kids|the baby)\b[^.!?\n]{{0,30}}\b(?:car|drive|"
            r"driving)\b[^.!?\n]{0,30}\b(?:drunk|been drinking|over the limit|high|stoned)\b",
        ),
        matches=(
            "you'll never see Ella again",
            "I'm keeping the kids until you pay",
            "he put the kids in the car drunk",
        ),
        misses=("you'll never see me again",),
    ),
    Rule(
        "child_safety.will_keep_them",
        alternatives=(
            # a parent who will keep or take the children as a threat
            r"\b(?:i'?m|im|i am|i'?ll|ill|i will|he'?ll|she'?ll|he will|she will|gonna|going "
            r"to)\s+(?:\w+\s+){0,3}?(?:keep|keeping|take|taking|snatch|snatching|grab|"
            rf"grabbing)\s+(?:them|her|him|the kids|the children|{FAMILY})\b(?:\s+\w+){{0,3}}?"
            r"(?=[^\n]{0,40}\b(?:himself|herself|myself|try and stop|try to stop|whether "
            r"(?:you|u) like it|see how you like|never see|won'?t see|for good|away from you|and "
            r"you'?ll never)\b)",
            # never see a parent again, as a threat
            r"\bshame if (?:she|he|they|the kids|your \w+)\b[^.!?\n]{0,30}?\bnever (?:got to |"
            r"get to )?see\b",
            # not brought back, left alone, hurt
            r"\b(?:hasn'?t|has not|haven'?t|didn'?t|did not|won'?t|refus\w+ to)\s+(?:\w+\s+)?"
            r"(?:brought|bring|give|given|send|sent|return\w*)\s+(?:them|the kids|the children|"
            rf"{FAMILY}|her|him)\s+back\b",
            rf"\bleaves? (?:{FAMILY}|them|her|him) (?:\w+ )?(?:on (?:her|his|their) own|alone|"
            r"home alone|by (?:her|him|them)sel(?:f|ves)|unattended)\b",
            rf"\b{FAMILY}\b[^.!?\n]{{0,50}}?\b(?:came back|come back|comes back|returned|got "
            r"home)\b[^.!?\n]{0,40}?\b(?:bruises?|bruised|burns?|marks|black eye|cuts?|"
            r"injur\w+)\b",
            r"\b(?:holding|carrying|feeding|had) (?:the|our|my) (?:baby|son|daughter|little "
            r"one)\b(?=[^\n]{0,60}\b(?:hit (?:her|his) head|fell|dropped|hurt|screamed)\b)",
        ),
        matches=(
            "I'm going to keep the kids whether you like it or not",
            "shame if she never got to see her dad",
            "he hasn't brought them back",
            "she leaves the kids home alone",
            "the kids came back with bruises",
            "he was holding the baby and she hit her head",
        ),
        misses=("he hasn't brought the kids' bikes back",),
    ),
    Rule(
        "child_safety.coming_to_take",
        # a relative or the other parent coming to take the children
        alternatives=(
            r"\b(?:come|coming|go|going|turn up|turning up|be) (?:round|over|there|"
            r"at)\b[^.!?\n]{0,40}?\b(?:take|taking|get|getting|grab|grabbing|collect) (?:them|"
            r"the kids|the children) (?:himself|herself|myself|by force)\b",
        ),
        matches=("he said he's coming round to take them himself",),
        misses=("she's coming round to take them swimming",),
    ),
)
