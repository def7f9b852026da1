"""Guards: what cancels a rule's hit.  A negation ("he would never hurt me"), an idiom or
harmless use it overlaps ("this deadline is killing me", "shoot me a text"), a harmless
context (a knife in a recipe, a cut while cooking, a murder in a film), a smear that
only reports what the user is said to have claimed, and violence against "me" with
nobody doing it.  Recall comes first: when in doubt, a hit is kept.
"""

from __future__ import annotations

import re

from flows.analysis.danger.rule import Rule, Source
from flows.analysis.matching import Hit, clause_start, compile_split, negated

#: Idioms and harmless uses: a hit that overlaps one of these is dropped.  (Each way of
#: saying one is tried on its own, in the rules' table: detect.py.)
IDIOMS: tuple[str, ...] = (
    r"\b(?:kill|murder)(?:s)? (?:me|you) (?:if|when) (?:i|you|we|u)(?:'m| am| are|'re)? "
    r"(?:late|forget|forgot|eat|ate|spill|spilled|spoil|lose|lost|miss|missed|wear|break|broke|"
    r"scratch|crash)\b",
    r"\bkill (?:me|you) for (?:eating|forgetting|being late|saying|that|this)\b",
    r"\b(?:kill|murder)s? (?:me|you)\b(?=[^.!?\n]{0,40}?(?:\blol\b|\bhaha|\blmao\b|\bjk\b|"
    r"😂|🤣|😅|🙈|😆|😜))",
    r"\bshoot (?:me|you|him|her|us) (?:a|an) (?:text|message|email|msg|line|dm|call|pic)\b",
    r"\bshoot (?:me|us) (?:any|your|some|a few|over|across|through)\b",
    r"\bif you (?:eat|ate|drink|drank|take|took|touch|finish|steal|spoil|use)\b[^.!?\n]{0,40}\b"
    r"(?:kill|murder|end|strangle|destroy) (?:you|u)\b",
    r"\basked (?:me )?(?:if|whether) i'?d? (?:had|have|was having|am having|ever had) (?:any )?"
    r"thoughts? (?:of|about) (?:hurting|harming|killing) myself\b",
    r"\bstab(?:bed)? (?:me|you|him|her) in the back\b",
    r"\bhit (?:me|you) up\b",
    r"\b(?:break|kill|murder|strangle|throttle|smash|batter|hurt|punch|slap|thump) (?:your|you|ur|"
    r"him|her)\b[^.!?\n]{0,40}?(?:\bhaha|\blol\b|\blmao\b|😂|🤣|😜|😆)",
    r"\bwring (?:\w+ )?neck\b(?=[^.!?\n]{0,40}(?:\blol\b|\bhaha|😂|🤣|\bfor (?:eating|forgetting|"
    r"leaving|being|losing|breaking)))",
    r"\b(?:hurt|kill|killing|kills|destroy|destroying|wreck|wrecking)\w* (?:my|your) (?:legs|arms|"
    r"back|knees|feet|abs|glutes|calves|shoulders|thighs)\b(?=[^.!?\n]{0,40}\b(?:gym|class|"
    r"workout|run|running|hike|hiking|spin|yoga|pilates|training|session|marathon|walk|football|"
    r"tennis|squats|lifting|bootcamp)\b)",
    r"\b(?:threw|throws|throw|chucked|lobbed) (?:a|the|his|her|my) (?:ball|snowball|frisbee|pillow|"
    r"cushion|toy|sock|teddy|balloon|water balloon|sweet|sweets) at\b",
    r"\bjump(?:ing)? (?:into|in) the (?:sea|pool|lake|river|water)\b(?=[^.!?\n]{0,40}\b(?:freezing"
    r"|cold|swim|swimming|beach|holiday|summer|fun|dare)\b)",
    r"\b(?:died|dying|dead|die) (?:of |from |with )?laugh(?:ing|ter)\b",
    r"\b(?:my )?(?:whole )?life flash(?:ed|es)? before my eyes\b",
    r"\b(?:knife|knives) (?:set|block|rack|sharpener|drawer)\b|\bcricket (?:bat|practice|match)\b",
    r"\b(?:safe|accident)\b[^.!?\n]{0,30}?(?:\blol\b|\bhaha|\blmao\b|😂|🤣)",
    r"\bhit (?:me|you|u) back (?:with|on|about|later|tomorrow|asap|when|in|by|once|after)\b",
    r"\b(?:phone|battery|laptop|charger|tablet|ipad|car|plant|plants)(?:'s| is| has)? (?:about to "
    r"|going to |gonna |nearly |almost |just )?(?:die|dying|dead|died)\b",
    r"\b(?:got|get|getting|were|was) (?:absolutely |totally |properly )?(?:hammered|thrashed|"
    r"battered|smashed|destroyed|murdered)\b(?= \d+[- ]\d+| (?:last night|at the|on the "
    r"weekend|at (?:football|rugby|cricket|netball|hockey)))",
    r"\b(?:hammered|thrashed|battered|smashed) \d+[- ]\d+\b",
    r"\bbeat (?:me|you|us|him|her) (?:at|to|in)\b",
    r"\bcut myself (?:a|an|some|another|off|short)\b",
    r"\bhurt myself (?:laughing|at the gym|playing|running|lifting|training)\b",
    r"\bwhen i'?m (?:gone|not here|not around) (?:for|on|to|at)\b",
    r"\bsaw (?:you|u) (?:at|on) (?:the )?(?:news|tv|telly)\b",
    r"\b(?:knife|knives) (?:for|to cut) (?:the )?(?:cake|bread|pizza|veg|vegetables|meat|cheese)\b",
    r"\b(?:cake|bread|butter|steak|cheese|palette|pen) (?:knife|knives)\b",
    r"\bwatching (?:you|u|me) (?:play|perform|sing|dance|grow|on)\b",
    r"\bfollow(?:ing|ed|s)? (?:you|u|me) (?:on(?! (?:his|her|their|a) (?:bike|motorbike|scooter|"
    r"car|van)\b)|back)\b",
    r"\bdie (?:of|from) (?:laughing|embarrassment|boredom|shame|cringe|happiness|excitement|"
    r"heat|hunger|thirst)\b",
    r"\b(?:kids|children|boys|girls) away (?:for|on) (?:a|the|holiday|half term)\b",
    r"\bcould (?:sleep|stay in bed) (?:forever|for a week|for days)\b",
    r"\b(?:beat|beats|beating|smash|smashed|thrash|thrashed|destroy|destroyed|kill|killed|"
    r"murder|murdered|slaughter|annihilate|hammer|hammered) (?:me|you|u|us|him|her|them) "
    r"(?:at|in|on) (?:\w+ )?(?:tennis|chess|the quiz|quiz|scrabble|cards|pool|darts|golf|squash|"
    r"monopoly|badminton|football|game|games|fifa|mario kart|the race|a race|running|trivial)\b",
    r"\b(?:shot|shoot|shoots) (?:me|you|him|her|us) (?:a|an) (?:look|glance|smile|text|message|"
    r"email|dm|line|wink)\b",
    r"\b(?:kick|kicked|kicks|kicking) (?:me|you|us|him|her|them) out\b",
    r"\bi (?:\w+ )?(?:hit|bashed|banged|smashed|cut|burnt|burned|broke|twisted|cracked|knocked|"
    r"stubbed|whacked|bumped) my\b",
    r"\b(?:hit|hits|hitting|smacked|whacked|bopped|attacked) (?:me|him|her|them|us|my \w+|his \w+"
    r"|her \w+) "
    r"with (?:a|the|his|her) (?:pillow|cushion|toy|balloon|sock|snowball|nerf|water)\b",
    r"\b(?:it|that|this|which|work|stress|worry|waiting|guilt)(?:'?ll|'s| will| would|'d| is| was)?"
    r" (?:probably |honestly |literally |actually |really )?(?:kill|killing|kills) (?:me|you)\b",
    r"\b(?:choked|choke|chokes) (?:me|you|us|him|her) up\b",
    r"\bhit (?:me|you|him|her|us) (?:like a|with the news|that|hard that|out of nowhere)\b",
    r"\b(?:it|that|this|reality|the news|the realisation|the realization) (?:really |finally "
    r"|just )?"
    r"hit (?:me|you|him|her)\b",
    r"\b(?:cut|cuts|cutting) (?:my|your|his|her) (?:hair|fringe|nails|toenails|lawn|grass"
    r"|losses)\b",
    r"\bbreak (?:a|your) leg\b|\bbroke (?:my|his|her|your) (?:leg|arm|wrist|ankle|toe|finger) "
    r"(?:playing|skiing|falling|on the|at|in a|when i fell|when he fell|when she fell)\b",
    r"\b(?:burn|burned|burnt) (?:my|your|his|her) (?:hand|finger|fingers|arm|tongue|mouth) "
    r"(?:on|with(?! (?:a|the|my|his|her) (?:lighter|cigarette|razor|blade|match))|cooking|taking|"
    r"getting)\b",
    r"\b(?:dog|dogs|cat|cats|puppy|kitten|pup|toddler|duck|ducks|geese|goose|cow|cows|"
    r"horse|chickens?|seagulls?|pigeons?) (?:\w+ ){0,2}(?:follow|follows|following|followed|"
    r"watching|watches|watched|stalking|stalks|stalked|waiting|waits|sitting|sits|sat)\b"
    r"[^.!?\n]{0,30}",
    r"\b(?:location|find my) (?:on|sharing) (?:for|with) (?:my|our) (?:kids|son|daughter|"
    r"mum|mom|dad|friends?|sister|brother)\b",
    r"\bcome (?:outside|downstairs) (?:and )?(?:play|for|to see|and see|and look)\b",
    r"\bstick(?:s|ing)? to (?:your|his|her|my|their|our) guns\b",
    r"\bi'?m (?:literally |actually |so )?(?:dead|dying|deceased)\b(?=[^.!?\n]{0,20}?(?:\blol\b"
    r"|\bhaha|\blmao\b|😂|🤣|💀|😆))",
)

#: A weapon word in a sentence about cooking, DIY, games or fiction is not a weapon.
HARMLESS_WEAPON = re.compile(
    r"\b(?:cake|bread|watermelon|melon|pizza|veg|vegetables|onions?|chopping|chop|carve|carving|"
    r"turkey|roast|cook|cooking|recipe|lasagne|cheese|butter|steak|fruit|sandwich|cutlery|"
    r"sharpener|blunt|diy|shelf|shelves|nails|picture|fence panel|archery|range|clay pigeon|"
    r"paintball|nerf|water|glue|staple|toy|film|movie|game|netflix|episode|book|novel|xbox|"
    r"playstation|fortnite|skills|chef|butcher|pumpkin|bbq|barbecue|museum|display|antique|"
    r"collection|ornament|mounted|cricket|rounders|softball|practice|training|nets)\b"
)
#: "I cut myself chopping onions": an everyday accident, not self-harm.
ACCIDENT = re.compile(
    r"\b(?:cooking|chopping|slicing|shaving|by accident|accidentally|on the (?:oven|stove|hob|"
    r"iron|kettle|pan|grill|bbq|barbecue|tin|glass)|with the (?:iron|kettle|knife|scissors)|"
    r"at the gym|playing|gardening|baking|making (?:dinner|lunch|tea|breakfast))\b"
)
#: Violence in a story someone watched or read.
FICTION = re.compile(
    r"\b(?:film|movie|documentary|episode|series|netflix|novel|book|podcast|true crime|"
    r"tv show|video game|the game|thriller|murder mystery|plot)\b"
)
#: Someone doing it: "i", "he", "my ex", "somebody".
PERSON_SUBJECT = re.compile(
    r"\b(?:i|i'm|i'?ll|i'd|i've|he|she|they|we|he's|she's|he'?ll|she'?ll|they'?ll|they're|"
    r"ex|husband|wife|boyfriend|girlfriend|partner|dad|father|mum|mom|mother|stepdad|stepmum|"
    r"brother|sister|uncle|aunt|cousin|someone|somebody|son|daughter)\b"
)
#: An incoming message that relays what the user is said to have claimed ("you told
#: your friends that Dad used to hit you"): a smear to answer, not a danger.
YOUR_CLAIM = re.compile(
    r"\byou(?:'d|'ve| had| have)? (?:been )?(?:told|telling|said|saying|claimed|claiming|"
    r"tell|say|claim)\b(?: \w+){0,3}? that\b[^.!?\n]*$"
)
#: "he's telling everyone you hit him": a smear about the user, not a danger to them.
SAYS_YOU = re.compile(
    r"\b(?:telling|tells|told|saying|says|said|claims?|claiming)\s+(?:everyone|everybody|"
    r"people|the family|the whole family|them|all (?:his|her|their) mates|(?:his|her|their) "
    r"mates|the court|the police|anyone who'?ll listen)\s+(?:that\s+)?(?:you|u)\b"
)

IDIOM: tuple[re.Pattern[str], ...] = tuple(p for idiom in IDIOMS for p in compile_split(idiom))


def claimed(text: str, hit: Hit) -> bool:
    """The hit is in a sentence that says the user claimed it, or that others are told
    the user did it (see ``YOUR_CLAIM`` and ``SAYS_YOU``)."""
    lo = max(0, hit.start - 160)
    begin = max(text.rfind(mark, lo, hit.start) for mark in ".!?\n") + 1
    return bool(
        YOUR_CLAIM.search(text, max(lo, begin), hit.start)
        or SAYS_YOU.search(text, max(lo, begin), hit.start)
    )


def kept(rule: Rule, text: str, hit: Hit, idiom_spans: list[Hit], source: Source) -> bool:
    """Whether a hit of ``rule`` in the normalised ``text`` stands.  ``idiom_spans``: the
    hits of ``IDIOM`` in the text."""
    if any(i.start < hit.end and hit.start < i.end for i in idiom_spans):
        return False
    if rule.negatable and negated(text, hit.start, hit.end):
        return False
    around = (max(0, hit.start - 60), min(len(text), hit.end + 60))
    if rule.kind == "weapon" and HARMLESS_WEAPON.search(text, *around):
        return False
    if rule.kind == "violence" and FICTION.search(text, *around):
        return False
    if rule.kind == "self_harm" and ACCIDENT.search(text, hit.start, min(len(text), hit.end + 40)):
        return False
    if rule.kind == "violence" and source == "incoming" and claimed(text, hit):
        return False
    if rule.needs_person_subject:
        begin = clause_start(text, hit.start)
        if not PERSON_SUBJECT.search(text, begin, hit.end):
            return False
    return True
