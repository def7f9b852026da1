"""Danger detection: violence, stalking, self-harm (theirs or the user's), weapons and the
children's safety.  Fast enough to run on every free text the user sends.

Each rule is a readable regular expression over the normalised text (see normalize.py).
Rules that say what someone WILL do can be negated ("he would never hurt me"); idioms
("this deadline is killing me", "shoot me a text") are listed in ``IDIOMS`` and cancel a
hit they overlap.  Recall comes first: when in doubt, the safety message is shown.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from flows.analysis.classifier import (
    SELF_HARM,
    Model,
    Scored,
    classify,
    load_model,
    score,
    worrying,
)
from flows.analysis.matching import (
    Hit,
    clause_start,
    compile_any,
    compile_split,
    find,
    find_all,
    negated,
    phrases,
)
from flows.analysis.normalize import Normalized, normalize
from flows.analysis.result import Finding

Source = Literal["user", "incoming"]
Person = Literal["first", "third", "infer", "any"]

WHY: dict[str, str] = {
    "violence": "This mentions hurting someone, or a threat of violence.",
    "stalking": "This sounds like being watched, followed or turned up on.",
    "self_harm_them": "This sounds like they are talking about harming themselves.",
    "self_harm_user": "It sounds like you might be thinking about hurting yourself.",
    "weapon": "This mentions a weapon.",
    "child_safety": "This sounds like a risk to the children, or a threat to take them.",
}

# --------------------------------------------------------------------------- vocabulary
_KIDS = (
    r"(?:kids|children|child|baby|babies|son|daughter|boys|girls|toddler|little ones?|"
    r"(?:little|baby|younger|kid) (?:brother|sister)|stepson|stepdaughter|grandson|granddaughter|"
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)[- ](?:year|yr|month)[- ]olds?)"
)
_FAMILY = r"(?:(?:the|our|my|your|his|her) " + _KIDS + r")"
_PEOPLE_OBJ = (
    r"(?:you|me|us|him|her|them|"
    r"(?:the|our|my|your|his|her) (?:kids|children|child|baby|son|daughter|boys|girls|dog|cat|"
    r"family|boyfriend|girlfriend|husband|wife|partner|mum|mom|mother|dad|father|sister|brother|"
    r"new \w+|face|head|neck|legs|teeth|knees|arms|skull|throat|kneecaps|eyes|nose|jaw|"
    r"ribs)|"
    r"(?:every|each|both|that|those|all (?:your|his|her|my)|your|his|her|my|the) (?:\w+ )?"
    r"(?:fingers?|bones?|hands?|arms?|legs?|neck|face|head|teeth|knees?|skull|throat|ribs?|"
    r"nose|jaw|eyes?|kneecaps?|spine|wrists?|ankles?))"
)
_MODAL = (
    r"(?:i'?ll|i will|i'd|i would|he'?ll|she'?ll|they'?ll|we'?ll|he will|she will|they will|"
    r"he'd|she'd|they'd|he would|she would|will|would|could|going to|want(?:s|ed)? to|"
    r"threaten(?:s|ed|ing)? to|tried to|try(?:ing)? to|promised to|swore to|about to|"
    r"i'?m going to)"
)
_HARM_VERB = (
    r"(?:kill|murder|hurt|harm|stab|shoot|strangle|choke|beat|batter|hit|punch|kick|slap|smash|"
    r"bash|attack|end|rape|burn|break|drown|slit|throttle|cave|snap|crush|knock out|knock|maim|"
    r"smother|suffocate|run over|glass|torch|wring)"
)
_PAST_HARM = (
    r"(?:hit|hits|punched|punches|kicked|kicks|slapped|slaps|choked|chokes|strangled|strangles|"
    r"throttled|beat|beats|battered|smacked|smacks|shoved|shoves|assaulted|attacked|raped|"
    r"headbutted|bit|stabbed|burned|burnt|suffocated|slammed|bashed|banged|kneed|elbowed|"
    r"stamped on|spat on|spat at|scalded|whipped|"
    r"hurts?(?= (?:me|us) (?:again|badly|physically|last night|so bad|every)))"
)
_ABUSER = (
    r"(?:he|she|they|ex|husband|wife|boyfriend|girlfriend|partner|dad|father|mum|mom|mother|"
    r"stepdad|stepmum|stepmom|brother|sister|uncle|aunt)"
)
_WEAPON = (
    r"(?:gun|guns|shotgun|rifle|pistol|handgun|firearm|firearms|revolver|knife|knives|machete|"
    r"blade|axe|crossbow|taser|weapon|weapons|baseball bat|crowbar|hammer)"
)
_WEAPON_DET = (
    r"(?:a|an|the|his|her|my|your|their|some|this|that|still|got|\w+'s|kitchen|big|huge|small|"
    r"little|hunting|carving|bread|sharp|loaded|real|fucking|new|old)"
)
_HOME = (
    r"(?:new )?(?:place|house|home|flat|apartment|work|office|school|street|road|door|"
    r"mum's|mom's|parents'?|sister's|brother's|friend's|car|gym|job|window)"
)


@dataclass(frozen=True)
class Rule:
    kind: str  # a danger kind, or "self_harm" (whose person decides the kind)
    pattern: str
    negatable: bool = False
    person: Person = "any"
    needs_person_subject: bool = False  # violence against "me": someone must be doing it
    source: Source | None = None  # only for texts from this source


_BODY = (
    r"(?:(?:my|your|ur|his|her|their|our|every|each|both|that) (?:\w+ )?(?:fingers?|bones?|hands?|"
    r"arms?|legs?|neck|face|head|teeth|knees?|skull|throat|ribs?|nose|jaw|eyes?|kneecaps?|spine|"
    r"wrists?|ankles?|back|stomach|chest|lip|mouth|hair|body))"
)

# Wordings that tell of two kinds at once; each is written once and used by both rules.
_SEE_ME_COMING = r"\b(?:won'?t|will not|never) (?:even )?see me coming\b"
_KNOWS_THE_SCHOOL = r"\bi know (?:which|what|where) (?:school|nursery|club|class)\b"
_PHOTO_OF = r"\b(?:pic|picture|photo|photos|snap|video) of (?:my|your|ur|our|the) (?:\w+'s )?"
_PHOTO_OF_THE_SCHOOL = _PHOTO_OF + r"(?:school|nursery|school gate|playground)\b"
_BULLET = r"\bstops? a bullet\b|\bbullet (?:with|for) (?:your|ur|his|her) name\b"
_WEAPON_BROUGHT = (
    r"\b(?:coming|driving|going|come|drive|be) (?:over|round|there|to yours|to your)\b"
    r"(?:\s+\w+){0,2}?\s+with (?:the|a|my|his) (?:bat|knife|gun|machete|hammer|axe|crowbar|"
    r"blade)\b"
)

RULES: tuple[Rule, ...] = (
    # ------------------------------------------------------------------ violence
    Rule(
        # A harm verb in any tense with a person or a body part as its object, said by
        # someone ("he strangled me", "she'll slit your throat", "they beat him").
        "violence",
        r"\b(?:kill(?:ed|s|ing)?|murder(?:ed|s|ing)?|strangl(?:e|ed|es|ing)|chok(?:e|ed|es|ing)|"
        r"stab(?:bed|s|bing)?|slit(?:s|ting)?|punch(?:ed|es|ing)?|beat(?:s|ing|en)?|batter(?:ed|s|"
        r"ing)?|shoot(?:s|ing)?|shot|kick(?:ed|s|ing)?|slap(?:ped|s|ping)?|throttl(?:e|ed|es|ing)|"
        r"suffocat(?:e|ed|es|ing)|smother(?:ed|s|ing)?|drown(?:ed|s|ing)?|rap(?:e|ed|es|ing)|"
        r"hit(?:s|ting)?|headbutt(?:ed|s|ing)?|torture(?:d|s)?|maim(?:ed|s)?|stamp(?:ed|s)? on|"
        r"bottl(?:e|ed)|glass(?:ed)?|knock(?:ed)? out|shook|shake|shaking|claw(?:ed|s)?|"
        r"bury|burie[sd]|spat (?:in|on|at)|spit (?:in|on|at))\s+"
        rf"(?:me|you|u|us|him|her|them|{_BODY}|(?:my|your|his|her|our) (?:mum|mom|dad|sister|"
        r"brother|boyfriend|girlfriend|husband|wife|partner|friend|dog|cat|family))\b"
        r"|\b(?:smash(?:ed|es|ing)?|break(?:s|ing)?|broke|snap(?:ped|s)?|crack(?:ed|s)?|"
        r"burn(?:ed|t|s|ing)?|cut|slash(?:ed|es)?|twist(?:ed|s)?|bash(?:ed|es)?|cave(?:d)? in|"
        rf"kick(?:ed)? in|stamp(?:ed)? on|squeez(?:e|ed|es|ing)|rip(?:ped|s)?|pull(?:ed|s)?"
        rf"|yank(?:ed|s)?|grab(?:bed|s)?)\s+{_BODY}(?! off| out| back| up)\b"
        r"|\b(?:had|pinned|held|shoved|pushed|threw|slammed|backed|forced) (?:me|her|him|us) "
        r"(?:up )?against (?:the|a) (?:wall|door|fridge|car|floor|bed|window)\b"
        r"|\b(?:pulled|dragged|yanked|grabbed) (?:me|her|him|us) (?:\w+ )?by (?:my|her|his|the) "
        r"(?:hair|neck|throat|arm|arms|wrist|collar|legs?)\b"
        r"|\brip (?:your|his|her) (?:\w+ )?(?:head|face|throat|arms?|legs?) off\b"
        r"|\bmake (?:you|u|her|him|them) suffer\b",
        negatable=True,
        needs_person_subject=True,
    ),
    Rule(
        "violence",
        rf"\b{_MODAL}\s+(?:\w+\s+){{0,2}}?{_HARM_VERB}\s+{_PEOPLE_OBJ}\b",
        negatable=True,
        needs_person_subject=True,
    ),
    Rule(
        "violence",
        rf"\b{_ABUSER}\b(?:\s+\w+){{0,3}}?\s+(?:{_PAST_HARM}|used to (?:beat|hit|hurt))\s+"
        rf"(?:me|us|my|our|the kids|the children|him|her|them)\b",
        negatable=True,
    ),
    Rule(
        "violence",
        rf"\b{_ABUSER}\b(?:\s+\w+){{0,3}}?\s+(?:grabbed|pushed|threw|held|pinned|dragged|"
        r"shoved|yanked|squeezed|twisted)\s+"
        r"(?:me|us)\s+(?:by|into|against|down|to the|over|up against|hard|and|across|out|"
        r"so|until|till|onto|on|off|round|around|through)\b(?! (?:the |a )?swings?\b)"
        rf"|\b{_ABUSER}\b(?:\s+\w+){{0,3}}?\s+(?:grabbed|pinned|shoved|dragged|restrained|"
        r"cornered|tripped|spat at|spat on|bit|kneed|elbowed|kicked) (?:me|us)\b(?! (?:a|an"
        r"|some)\b)",
        negatable=True,
    ),
    Rule(
        "violence",
        # Injuries someone gave: "a bruise the size of a hand ... where he grabbed me".
        r"\b(?:bruises?|bruised|black eye|split lip|fat lip|cracked rib|broken (?:nose|rib|ribs|"
        r"arm|wrist|finger|jaw|tooth)|marks on my (?:neck|arm|arms|throat|face|wrist|wrists))\b"
        r"(?=[^.!?\n]{0,80}\b(?:he|she|they|him|her|where|from when|after)\b)",
    ),
    Rule(
        "violence",
        # Threats that name the outcome rather than the act.
        r"\bend up (?:in|at|on|under) (?:a |the )?(?:ditch|hospital|river|canal|morgue|grave|"
        r"body bag|boot|wheelchair|a&e|bottom of|ground)\b"
        r"|\b(?:nobody|no one|no-one|they) (?:would|will|'ll|'d|wouldn'?t|won'?t) (?:ever |even )?"
        r"(?:find (?:you|your body|the body|her|him)|find what'?s left|know where you)\b"
        r"|\b(?:if|when) you (?:went|go|disappeared|disappear) missing\b"
        r"|\b(?:you'?re|you are|you were|you'?ll be|he'?s|she'?s) lucky (?:that )?(?:i|he|she) "
        r"(?:only|didn'?t|did not|never|stopped)\b"
        r"|\bhow close i came\b|\bwhat'?s coming to (?:you|him|her)\b|\bdon'?t make me (?:finish"
        r"|hurt|do (?:it|this|something)|"
        r"come (?:over|round|there|and)|use|get (?:the|my)|lose it|snap)\b"
        r"|\b(?:wants? to|better|had better|'d better|should|needs? to|ought to) watch "
        r"(?:yourself|himself|herself|themselves|your back|his back|her back|it)\b"
        r"|\bmake sure (?:you|i|she|he|they) (?:can'?t|couldn'?t|won'?t|wouldn'?t|never|don'?t"
        r"|can never|will never) (?:\w+ )?(?:walk|leave|talk|breathe|run|speak|move|"
        r"get up|smile)\b"
        r"|\bteach (?:you|him|her|them) a lesson\b"
        r"|\bget (?:my|his|her) hands on (?:you|u|her|him)\b"
        r"|\bwhat happens to (?:your|ur) (?:face|legs|kneecaps|teeth|head|car|house|flat)\b"
        r"|\b(?:in|end up in) a wheelchair\b(?=[^\n]{0,40}\b(?:i'?m done|i'?ve finished|i "
        r"finish)\b)"
        r"|\b(?:going to|gonna|gunna|will|'ll) get (?:seriously |badly |really )?(?:hurt|killed)\b"
        r"|\b(?:doors?|windows?) (?:all )?locked\s*\?|\block (?:your|ur) (?:doors?|windows?)"
        r"(?: tonight)?\b|\bsleep tight\b(?=[^\n]{0,30}\block)"
        r"|\b(?:you'?ll|you will|make you|he'?ll make you|i'?ll make you) wish (?:you|u) "
        r"(?:were|was|'d|had) (?:dead|never been born)\b"
        r"|\b(?:held|holding|put|pressed|pushed) (?:a |the )?(?:pillow|cushion|hand|bag) "
        r"(?:over|on|against) (?:my|her|his|your) (?:face|mouth|nose|head)\b"
        r"|\b(?:until|till|so) i (?:couldn'?t|could not|can'?t) breathe\b"
        r"|^\W*watch (?:yourself|your back)\b|\bwatch yourself\b(?! on| in the| out)"
        rf"|\b{_MODAL}\s+(?:\w+\s+)?['\"]?(?:sort|sorting) (?:you|me|him|her|them) out\b"
        r"|\b(?:anyone|anybody|someone|somebody) could (?:get in|break in|walk in|get to (?:her|him"
        r"|you|them))\b|\b(?:be a )?shame if (?:something|anything) (?:happened|were to happen)\b"
        r"|\baccidents happen\b|\b(?:ought to|should|better|needs? to|wants? to) lock "
        r"(?:that|the|her|his|your) (?:\w+ )?(?:gate|door|window|doors|windows)\b"
        r"|\b(?:gbh|abh|grievous bodily harm|actual bodily harm|domestic violence|"
        r"(?:done|did|served) time for (?:assault|hurting|hitting|battering|attacking|stabbing))\b"
        r"|\b(?:convicted|arrested|charged|jailed|done|did time) (?:\w+ )?for (?:assault|"
        r"attacking|battery|wounding|stabbing)\b",
    ),
    Rule(
        "violence",
        rf"\bcan'?t have (?:you|u|them|him|her|{_FAMILY}|the kids),? (?:then )?(?:no ?one|nobody"
        r"|no-one)\b",
    ),
    Rule(
        "violence",
        r"\b(?:you'?re|you are|he'?s|he is|she'?s|she is|is) (?:a )?dead (?:man|woman|meat)\b"
        r"|\byou'?re (?:so |fucking )?dead\b(?! to)",
    ),
    Rule("violence", r"\bwatch (?:your|ur) back\b"),
    Rule(
        "violence",
        r"\bsleep with one eye open\b|\bwon'?t see it coming\b"
        r"|\bhands? (?:round|around|on) (?:my|your|her|his) (?:neck|throat)\b"
        r"|\bthrew (?:a|the|his|her|my) \w+ at (?:me|us|my|you)\b"
        r"|\b(?:throw|throws|threw|throwing|chucked|hurled|lobbed) (?:things|stuff|plates|bottles|"
        r"glasses|cups|mugs|chairs|furniture|(?:a|the|his|her|my) (?:\w+ )?\w+) at (?:me|us|my "
        r"(?:head|face)|the kids)\b|\block(?:ed|s)? (?:me|us) (?:in"
        r"|out)\b",
    ),
    Rule(
        "violence",
        r"\bnext time it'?(?:ll| will) be (?:you|me|your \w+)\b"
        r"|\b(?:punched|kicked|smashed|put his fist through|put her fist through) (?:a|the) "
        r"(?:wall|door|window)\b"
        r"|\b(?:punched|kicked|smashed|put|made) (?:a )?holes? (?:in|through) (?:the|a|my|our) "
        r"(?:wall|door|window|plasterboard)\b",
    ),
    Rule(
        "violence",
        r"\bburn\s+(?:\w+\s+){0,3}?(?:house|home|flat|place|car)\s+down\b|\bburn (?:it|you) down\b",
    ),
    Rule(
        "violence",
        r"\bput (?:you|u|me) in (?:the )?(?:hospital|ground|grave)\b"
        r"|\bbeat the (?:shit|crap|hell|life) out of\b",
    ),
    Rule(
        "violence",
        r"\b(?:scared|afraid|terrified|frightened|fear)\b[^.!?\n]{0,40}?\b(?:hurt|kill|attack|hit)"
        r"(?:s|ing)? (?:me|us|the kids)\b|\b(?:fear|scared|afraid) for my (?:life|safety)\b"
        r"(?![^.!?\n]{0,30}\b(?:roads|drivers|motorway|rollercoaster|ride|flight|plane|lol"
        r"|haha)\b)",
    ),
    Rule("violence", r"\bthreaten(?:s|ed|ing)? (?:me|us|to kill|to hurt)\b"),
    # ------------------------------------------------------------------ weapons
    Rule(
        "weapon",
        r"\b(?:has|have|had|'ve|got|get|getting|bought|buying|own|owns|keep|keeps|kept|carry|"
        r"carries|carrying|brought|bring|pulled|pulls|waved|waving|pointed|pointing|grabbed|"
        r"grabbing|showed|holding|held|hides|hide|hidden|hid|loaded|cleaning|sharpening|with|"
        r"remember|know where|taken|took|takes|taking|posting|posts|posted|pics of|photos of)"
        r"\s+(?:me|us|you|is|are)?\s*"
        rf"(?:{_WEAPON_DET}\s+){{0,3}}{_WEAPON}\b(?! set| block| and fork| skills)",
        negatable=True,
    ),
    *(
        Rule(
            kind,
            r"\b(?:showed|showing|shows|pointed|pointing|points|waved|waving|held|holding|pulled|"
            r"pulling|came at|coming at|threatened|threatening|chased|chasing|went for) "
            rf"(?:me|us|you|her|him|them|my \w+)\b[^.!?\n]{{0,25}}?\b{_WEAPON}\b"
            r"|\b(?:pulled|pulls|got|gets|took|takes|waved|waving|pointed|pointing|held|holding|"
            r"swung|swinging|brandished|brandishing|came at (?:me|us|her|him) with) (?:out )?"
            rf"(?:a|the|his|her|my) {_WEAPON} "
            r"(?:out )?(?:on|at|to) (?:me|us|you|her|him|them)\b",
            negatable=True,
        )
        for kind in ("weapon", "violence")
    ),
    Rule(
        "weapon",
        rf"\b{_WEAPON}\s+(?:to|at|against|in|under)\s+(?:my|your|his|her|the)\s+"
        r"(?:head|throat|face|neck|chest|pillow|bed|seat)\b",
    ),
    Rule(
        "violence",
        rf"\b{_WEAPON}\s+(?:to|at|against|into)\s+(?:my|your|his|her)\s+"
        r"(?:head|throat|face|neck|chest|back|stomach|ribs)\b",
    ),
    Rule("weapon", r"\b(?:shoot|stab)(?:s|ed|ing)?\s+(?:you|me|him|her|us|them)\b"),
    Rule(
        "weapon",
        r"\b(?:remember|you know|don'?t forget|think about) what i (?:keep|have|'ve got|got|"
        r"keep hidden) (?:in|under|behind|upstairs|in the)\b",
    ),
    Rule(
        "weapon",
        rf"\b(?:my|the|this|that|his|her) {_WEAPON}(?:'s| is) (?:\w+ )?(?:sharp|loaded|ready"
        r"|waiting|"
        r"still (?:in|under|there))\b",
    ),
    # ------------------------------------------------------------------ stalking
    Rule(
        "stalking",
        r"\bi know where (?:you|u) (?:live|work|are|sleep|park|go|stay|shop|train)\b"
        r"|\b(?:i )?know (?:your|ur) (?:new )?(?:address|route|routine|schedule|shifts)\b"
        r"|\bi know what time (?:you|u) (?:finish|leave|get|start|go)\b"
        r"|\bi saw who (?:left|came|was)\b|\bi'?ll come (?:and|to) (?:get|find) (?:you|u)\b"
        r"|\bknow (?:which|what) (?:gym|school|route|bus|train|shop|cafe|class|time|days?|car|"
        r"road|street|flat|house|door|shifts?|hours|pub|church|nursery|office) "
        r"(?:you|u)\b|\bi'?ll know if (?:you|u)\b|\bi can see (?:your|ur) (?:light|window|car|door)"
        r"|\b(?:watching|following) (?:you|u|me)\b"
        r"|\bpretending to be (?:my|your|his|her|a|the) (?:sister|brother|mum|mom|dad|friend|"
        r"colleague|boss|cousin|police|doctor|manager)\b"
        r"|\b(?:find|finding|found) out (?:my|your|ur) (?:shifts|address|location|new number|"
        r"schedule|route)\b"
        r"|\b(?:put|installed) (?:something|an app|a tracker|spyware) on (?:my|your) "
        r"(?:phone|car|laptop)\b|\bknows? (?:my |your )?every (?:message|text|move|call|step)\b"
        r"|\b(?:has|have|got|sees?|check(?:s|ing)?|track(?:s|ing)?|watch(?:es|ing)?) (?:my|your"
        r"|ur) "
        r"(?:live |phone(?:'s)? |car(?:'s)? )?location\b"
        r"|\b(?:your|ur) (?:bedroom |kitchen |living room |front room |landing |bathroom )?lights? "
        r"(?:was|were|is|are|'s|went) (?:still )?(?:on|off)\b"
        r"|\bsaw (?:him|her|them) (?:dropping|drop|picking|pick) (?:you|u) (?:off|up)\b"
        r"|\b(?:someone|somebody|he|she|they)(?:'s| has| have|'ve) been (?:in|inside|through) "
        r"(?:my|our) (?:flat|house|home|room|bedroom|car|place|drawers|stuff|things|bins|post)\b"
        r"|\b(?:he|she|they|him|them|someone|somebody|his \w+|her \w+|their \w+|i'?m|i was|"
        r"i'?ve been)\b[^.!?\n]{0,50}?\boutside (?:my|your|ur|our) (?:\w+ )?(?:house|flat|home"
        r"|work|office|"
        r"place|door|window|school|building|gym|job|workplace|bedroom)\b"
        r"|\b(?:i'?m|he'?s|she'?s|been|was|i am) (?:parked|sat|sitting|waiting|standing) "
        r"(?:across the road|down the road|round the corner|outside)\b"
        r"|\bknows? where i (?:live|work|am|stay)\b|\b(?:always|still) knows? where (?:i|you)\b",
    ),
    Rule(
        "stalking",
        # announcing that they will wait outside the user's places, or turn up at work
        r"\b(?:i'?ll|i will|i'?m going to|i'?m gonna|gonna|i'?m coming to)\s+(?:\w+\s+){0,2}?"
        r"(?:be|wait|waiting|sit|park|stand)\s+(?:\w+\s+){0,2}?outside\s+(?:your|ur)\s+"
        r"(?:\w+\s+)?(?:work|office|house|flat|home|place|door|school|gym|job|workplace|"
        r"building|window)\b"
        r"|\b(?:i'?ll|i will|i'?m going to|i'?m gonna|gonna)\s+(?:be|wait|come|turn up|show up)"
        r"\s+(?:\w+\s+){0,2}?(?:at|to)\s+(?:your|ur)\s+(?:work|office|workplace|job|gym)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:turn(?:ed|s|ing)?|show(?:ed|s|ing)?|shown) up\s+(?:at|outside|to)\s+"
        r"(?:my|your|ur|the|our)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:parked|waiting|sitting|sat|standing|stood|lurking|hanging around|hanging about|"
        r"watching|circling)\s+(?:\w+\s+){0,2}?(?:at|by)\s+(?:my|your|ur|the|our)\s+"
        r"(?:\w+\s+)?(?:gates?|school|work|office|flat|house|car|gym|job|nursery|station|"
        r"bus stop|workplace|college|uni|university)\b(?![^.!?\n]{0,40}\bto (?:give|drop|return|"
        r"hand|collect|pick)\b)"
        r"|\b(?:parked|waiting|sitting|sat|standing|stood|lurking|hanging around|hanging about|"
        r"watching|circling|been|was|were)\s+(?:\w+\s+){0,2}?(?:outside|across from|"
        r"across the road from|near|at the end of)\s+(?:my|your|ur|the|our)\s+"
        rf"(?:\w+\s+)?{_HOME}",
    ),
    Rule(
        "stalking",
        r"\b(?:i'?m|i am|he'?s|she'?s|he is|she is)\s+(?:\w+\s+)?outside\b"
        rf"|\b{_ABUSER}(?:'s| is| was| keeps? (?:being|sitting|waiting|standing)| has been|"
        r" have been)\s+(?:\w+\s+)?outside\b"
        r"|\b(?:car|van)(?:'s| is)\s+(?:parked\s+)?outside\b",
    ),
    Rule(
        "stalking",
        r"\bfollow(?:ed|ing|s)?\s+(?:me|you)\s+(?:home|to|from|around|everywhere|again|into)\b"
        r"|\bfollow(?:ed|ing|s)? (?:me|you) (?:on|in) (?:his|her|their|a) (?:bike|motorbike"
        r"|scooter|"
        r"car|van)\b"
        r"|\b(?:tracker|tracking device|airtag|air tag|spyware|stalkerware)\b"
        r"|\btrack(?:s|ed|ing)?\s+(?:my|your|her|his)\s+(?:phone|car|location|movements)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:hacked|hacking|logged into|logging into|went through|going through|spying on|"
        r"monitoring)\s+(?:my|your)\s+(?:phone|messages|emails|email|accounts?|texts|whatsapp|"
        r"icloud|facebook|instagram|location)\b",
        negatable=True,
    ),
    Rule(
        "stalking",
        r"\b(?:i )?(?:saw|seen|spotted|clocked) (?:you|u|your car|ur car|your van|your new \w+|"
        r"your (?:kids|son|daughter|mum|mom)) (?:at|in|with|leaving|going|coming|outside|"
        r"yesterday|today|last night|this morning|on|parked)\b"
        r"|\b(?:see|saw|heard|hear|know|noticed) (?:that )?you'?ve moved (?:to|into|in)\b"
        r"|\b(?:keep|kept|keeps) seeing (?:his|her|their|the same|that) (?:\w+ )?(?:car|van|face|"
        r"bike)\b|\b(?:knows?|knew) (?:things|stuff) (?:that )?i (?:only|never|haven'?t|didn'?t)\b"
        r"|\byou looked (?:\w+ ){0,2}(?:in that|today|this morning|yesterday|last night|"
        r"on (?:the|your) (?:bus|train|way))\b"
        r"|\b(?:got|gets|get|getting) into (?:my|your|ur) (?:\w+ )?(?:account|accounts|email|"
        r"emails|phone|icloud|laptop|facebook|instagram|whatsapp|google|gmail)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:drove|driving|drive|drives|walked|walking|walks|went|cycled|been|popped|swung)\s+"
        rf"(?:past|by|round|around)\s+(?:your|ur|my|the)\s+{_HOME}"
        r"(?![^.!?\n]{0,30}\bto (?:drop|give|collect|pick|deliver|return|fix)\b)",
    ),
    Rule(
        "stalking",
        r"\b(?:i'?ll|i will|i'?m going to|we'?ll) (?:\w+ )?find (?:you|u)\b|\b(?:you )?can'?t "
        r"hide\b(?! behind)|\bwherever (?:you|u|i) go\b"
        r"|\b(?:turns?|turned|shows?|showed) up (?:wherever|everywhere|every time)\b"
        r"|\blook(?:ing)? over (?:your|ur) shoulder\b|\bnowhere to hide\b"
        r"|\b(?:i'?m|i am|i'?ve been|been) watching (?:you|u)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:new|different|fake|private|withheld|unknown|blocked|burner|other)\s+"
        r"(?:numbers|accounts|profiles)\b",
    ),
    Rule(
        "stalking",
        rf"\b(?:pictures|photos|photo|picture|videos|video)\s+of\s+(?:my|your|ur)\s+(?:\w+\s+)?"
        rf"{_HOME}",
    ),
    Rule(
        "stalking",
        r"\b(?:broke|broken|breaking|break)\s+into\s+(?:my|your|the|our)\b"
        r"|\b(?:banging|knocking|hammering|pounding)\s+on\s+(?:my|the|your)\s+(?:door|window)",
    ),
    Rule(
        "stalking",
        r"\b(?:or|otherwise|else|after that)\s+(?:i'?m|i am|i'?ll|i will)\s+(?:coming|"
        r"come|turning up|"
        r"showing up)\s+(?:round|over|to)\b",
    ),
    Rule(
        "stalking",
        r"\bi know (?:you'?re|you are|your) (?:at|in|with|staying)\b"
        r"|\bi know what (?:you|u) did (?:today|yesterday|last night|this morning)\b"
        r"|\basking (?:everyone |people |around |my friends |all over )?where i (?:am|live|work)\b"
        r"|\basking (?:everyone|people|around|my friends|all over) where you (?:are|live|work)\b",
    ),
    Rule(
        "stalking",
        # Showing they know the user's home, car, day or people: "nice new curtains".
        r"\b(?:nice|like|love|lovely|liking|loving|saw|seen|noticed|see) (?:the |your |ur |those |"
        r"that )?new (?:curtains|blinds|front door|door|doorbell|gate|fence|hedge|porch|car|"
        r"number plate|windows|neighbours|flatmate|housemate|place|flat|house)\b"
        r"|\b(?:had|have|having) a (?:\w+ )?(?:chat|word|talk|natter|coffee) with (?:your|ur) "
        r"(?:manager|boss|colleagues?|neighbours?|landlord|landlady|receptionist|new \w+|"
        r"housemates?|flatmates?|kids'? teacher|teacher)\b"
        r"|\b(?:your|ur) (?:manager|boss|colleagues?|neighbours?|landlord|landlady|receptionist|"
        r"new (?:boyfriend|girlfriend|fella|man|woman|partner|flatmate|housemate)) "
        r"(?:seems?|looks?|is|are) (?:nice|lovely|friendly|sweet|pretty|chatty|helpful)\b"
        r"|\b(?:(?:spoke|talked|been talking|chatted) to|met) (?:your|ur) (?:manager|boss|"
        r"colleagues?|neighbours?|landlord|landlady|receptionist)\b",
    ),
    Rule(
        "stalking",
        # Access to the user's accounts, devices or home.
        r"\b(?:password|passcode|pin|login|log-?in|code) (?:to|for) (?:your|ur|my) (?:\w+ )?"
        r"(?:icloud|email|emails|phone|account|accounts|bank|facebook|instagram|insta|whatsapp|"
        r"snapchat|laptop|google|gmail|ipad|tablet)\b"
        r"|\b(?:still|i) (?:know|have|got|'ve got|'ve still got) (?:the |your |ur |a )?"
        r"(?:buzzer|door|gate|alarm|entry|key) ?(?:code|key|fob)\b"
        r"|\bi (?:still )?(?:have|'ve got|got|kept) (?:a|the|your) (?:spare )?key\b[^\n]{0,40}"
        r"\b(?:sleep (?:well|tight)|sweet dreams|night night|see you soon|goodnight)\b"
        r"|\bi (?:still )?(?:have|'ve got|got|kept) (?:a |the )?(?:spare )?key (?:to|for) "
        r"(?:your|ur|yours|the flat|the house)\b"
        r"|\b(?:logged|logging|logs|signed|signing) (?:in)?to (?:my|your|ur) (?:\w+ )?"
        r"(?:account|accounts|icloud|email|phone|facebook|instagram|whatsapp|snapchat)\b"
        r"|\b(?:logged into|login to|log in to|accessed) (?:my|your|ur) account\b"
        r"|\b(?:read|reading|reads|seen|seeing|screenshotted) (?:all )?(?:your|ur|my) "
        r"(?:messages|texts|emails|dms|whatsapps|chats)\b"
        r"|\b(?:he|she|they|someone)\b[^.!?\n]{0,30}?\b(?:turned on|switched on|set up|installed"
        r"|enabled|sees|see|can see|checks?|checking|tracks?|tracking|watch(?:es|ing)?|using) "
        r"(?:\w+ )?(?:location sharing|find my|life360|snap ?map|my location|your location)\b"
        r"|\b(?:location sharing|life360|snap ?map|find my (?:iphone|phone|friends))(?:'s| is|"
        r" was)? ?"
        r"(?:still )?(?:on|switched on|turned on)\b"
        r"|\bshar(?:e|es|ed|ing) (?:my|your|ur) location with (?:him|her|them)\b"
        r"|\bput (?:something|an app|a tracker|spyware|an airtag) (?:on|in) (?:my|your|ur)\b",
    ),
    Rule(
        "stalking",
        # Turning up, being everywhere, knowing what they were never told.
        r"\b(?:i'?m|i am|i'?ll|i will|i'?ll be) (?:be )?(?:coming|come) (?:for|after) (?:you|u)\b"
        r"|\bcome (?:outside|out here|downstairs|to the (?:door|window))\b"
        r"|\blook out (?:of )?(?:your|ur|the) window\b"
        r"|\bevery (?:single )?time i (?:go|leave|get|walk|pop|turn)\b[^.!?\n]{0,60}?\b(?:is|are"
        r"|'s) (?:there|outside|waiting)\b"
        r"|\b(?:keeps?|kept|someone|somebody|he|she|they)\s+(?:\w+\s+)?(?:leaving|left|putting|"
        r"put)\b[^.!?\n]{0,40}?\b(?:on|at|outside|under|through|in) (?:my|our) (?:windscreen|"
        r"doorstep|door|car|step|porch|letterbox|wipers|windows?|desk|locker|pigeonhole)\b"
        r"|\b(?:he|she|they) (?:\w+ )?(?:knew|knows|know) (?:exactly )?(?:what|where|who|when) "
        r"i (?:was|had|did|went|am|'m|ate|bought|wore|said)\b"
        r"|\b(?:never|haven'?t|didn'?t|did not|have not) told (?:anyone|anybody|him|her|them) "
        r"(?:my|where|about my|what)\b"
        r"|\b(?:restraining|protection|non-molestation|court) order\b[^.!?\n]{0,40}?\b(?:stop|"
        r"keep|scare) me\b|\bpiece of paper\b(?=[^\n]{0,60}\b(?:see you|find you|coming))"
        r"|\b(?:won'?t|can'?t|cannot|isn'?t going to|not going to|nothing (?:will|can)) (?:\w+ )?"
        r"(?:stop|keep) me (?:from )?(?:seeing you|finding you|away)\b"
        r"|\b(?:keeps?|kept|keep on) (?:driving|walking|going|cycling|running|jogging)(?: (?:his"
        r"|her"
        r"|the|their) \w+)? (?:past|by|round) "
        r"(?:my|your|ur|the|our)\b"
        r"|\b(?:messaging|texting|calling|ringing|contacting|adding|following) (?:my|your|ur) "
        r"(?:friends|colleagues|family|boss|manager|sister|brother|mum|mom|dad)\b(?=[^.!?\n]{0,40}"
        r"\b(?:about (?:me|you)|to find|asking|where)\b)",
    ),
    # ------------------------------------------------------------------ children
    Rule(
        "child_safety",
        rf"\bnever see {_FAMILY}(?: again)?\b|\bnever see (?:them|him|her) again\b",
    ),
    Rule(
        "child_safety",
        rf"(?<!you )(?<!you ever )\b(?:take|taking|took|snatch|snatching|keep|keeping)\s+{_FAMILY}"
        r"\b[^.!?\n]{0,40}?\b(?:and (?:disappear|run|leave|go|vanish)|away|abroad|"
        r"out of the country|for good|where you|you'?ll never|won'?t find)",
    ),
    Rule(
        "child_safety",
        rf"\bthreaten(?:s|ed|ing)? to (?:\w+\s+){{0,6}}?(?:take|snatch|keep)\s+{_FAMILY}"
        r"|\b(?:i'?ll|he'?ll|she'?ll|will|going to) take (?:them|him|her)\b[^.!?\n]{0,40}?"
        r"\b(?:never (?:find|see|get)|disappear|abroad|away)\b"
        rf"|\bnever (?:get|see) (?:them|{_FAMILY}) back\b|\bnever find (?:us|them)\b",
    ),
    Rule(
        "child_safety",
        rf"\b{_KIDS}\s+(?:won'?t|will not|aren'?t|are not|not)\s+(?:be\s+)?"
        r"(?:coming|come|going|go)\s+(?:back|home)\b|\b(?:you )?won'?t (?:ever )?find (?:us"
        r"|them)\b",
    ),
    Rule(
        "child_safety",
        # The children named first, then "they won't be coming back", "you'll never see them".
        rf"\b{_KIDS}\b[^\n]{{0,100}}?\b(?:they|he|she)(?:'re| are| is|'s)? (?:\w+ )?(?:won'?t"
        r"|will not|aren'?t|are not|isn'?t|is not|not) (?:ever )?(?:be )?(?:coming|come|going|go) "
        r"(?:back|home)\b"
        rf"|\b(?:take|taking|took|takes|move|moving|keep|keeping|hide|hiding|hid)\s+(?:{_FAMILY}|"
        r"them|him|her|the kids)\b[^.!?\n]{0,60}?\b(?:abroad|overseas|out of the country|for good|"
        r"stay (?:a while|there|for good|permanently)|not (?:be )?coming back|won'?t (?:be )?"
        r"(?:coming|come) back|never (?:see|find)|you'?ll never|won'?t find|can'?t stop me|"
        r"without telling you|fight it)\b"
        rf"|\bcan'?t have {_FAMILY},? (?:then )?(?:no ?one|nobody|no-one)\b"
        r"|\bcan'?t have (?:the kids|them),? (?:then )?(?:no ?one|nobody|no-one)\b"
        r"|\bdon'?t bother looking for (?:us|them|him|her)\b"
        r"|\bdon'?t bother (?:looking|searching|trying to find (?:us|them))\s*(?:[.!]|$)"
        rf"|\b{_KIDS} (?:are|is|'re|'s) (?:staying )?with me (?:now )?(?:and|,)? ?(?:that'?s how "
        r"it'?s "
        r"(?:staying|going to stay)|for good|permanently|they'?re staying)\b"
        rf"|\b(?:try|good luck) (?:getting|finding|seeing) (?:them|the kids|{_FAMILY}) (?:back"
        r"|now)\b"
        r"|\b(?:won'?t|will not|refus\w* to|not going to|isn'?t going to|never going to) (?:give|"
        rf"bring|hand|send|return) (?:{_FAMILY}|them|him|her|the kids) (?:back|home)\b"
        r"|\b(?:packed|hidden|hid|taken|took|stole|kept|keeping|got hold of) (?:the kids'?|their"
        r"|the "
        r"children'?s|his|her|both|all the) passports?\b"
        rf"|\bgood luck (?:finding|getting|seeing) (?:them|us|the kids|{_FAMILY})\b"
        rf"|\bmake sure {_FAMILY} (?:never|don'?t|won'?t) (?:see|know|hear from|remember) (?:you"
        r"|u)\b"
        rf"|\b(?:hiding|hid|hidden|hides) {_FAMILY}\b"
        rf"|\b(?:keeping|kept|keeps|keep) {_FAMILY} (?:from (?:me|you|us)|away from)\b"
        r"|\bwon'?t (?:tell|say) (?:me|you) where (?:the kids|the children|they|my \w+|our \w+) "
        r"(?:are|is)\b"
        rf"|\b(?:you'?ll|you will|you'?re going to|you won'?t) (?:never|not) (?:see|get) {_FAMILY} "
        r"(?:again|back)\b"
        rf"|\b(?:pick(?:ed|ing)? up|collect(?:ed|ing)?|took|taken) {_FAMILY} (?:from school|early)"
        r"\b[^.!?\n]{0,40}?\bwithout (?:telling|asking)\b",
    ),
    *(
        Rule(
            kind,
            r"\b(?:hurt|hurts|hurting|hit|hits|hitting|beat|beats|beating|harm|harms|harming|"
            rf"smack|smacks|smacking|shake|shakes|shook|kill)\s+(?:(?:me|you|us|her|him) and )?"
            rf"{_FAMILY}\b",
            negatable=True,
        )
        for kind in ("child_safety", "violence")
    ),
    Rule(
        "child_safety",
        rf"\bleft {_FAMILY} (?:alone|on (?:their|his|her) own|home alone|in the car)\b"
        rf"|\b(?:drunk|drink[- ]driving|drove drunk|high)\b[^.!?\n]{{0,30}}\bwith {_FAMILY}",
    ),
    # ------------------------------------------------------------------ self-harm
    Rule(
        "self_harm",
        r"\bkill(?:ing)? myself\b|\b(?:end|ending|take|taking) (?:it all|my (?:own )?life)\b",
        negatable=True,
        person="first",
    ),
    Rule("self_harm", r"\bsuicid(?:e|al)\b", negatable=True, person="infer"),
    Rule(
        "self_harm",
        r"\b(?:want|wanna|going|ready|deserve|wish i could|i'?d rather|i just want) to die\b",
        negatable=True,
        person="first",
    ),
    Rule(
        "self_harm",
        r"\bwish i (?:was|were|had) (?:dead|never been born)\b|\bbetter off dead\b"
        r"|\b(?:better off|happier) without me\b(?! for\b| tonight| this| at| on| while| in the)"
        r"|\bbetter off if i (?:was|were|wasn'?t|weren'?t|was not|were not|didn'?t|did not)\s+"
        r"(?:here|around|alive|exist)"
        r"|\b(?:don'?t|do not|no longer) want to (?:be here|be alive|live|exist|wake up|go on|"
        r"be around)\b(?! (?:early|late|at|before|on|in|with|near|there|when|for|by|next|abroad|"
        r"together)\b)",
        person="first",
    ),
    Rule(
        "self_harm",
        r"\bno (?:point|reason) (?:in |to )?(?:living|live|going on|keep going|carry on|"
        r"carrying on|being alive|being here)\b"
        r"|\bwhat'?s the point (?:of|in) (?:living|life|going on|being alive|anything)\b"
        r"|\bwhat'?s the point anymore\b|\bnothing (?:left )?to live for\b|\bcan'?t go on\b"
        r"|\b(?:never|not) wake up\b(?! (?:with|to|early|late|in|on|at|before|after|feeling|"
        r"hungover|sick|grumpy|tired|too|until|till)\b)"
        r"|\b(?:better|easier|happier|simpler)(?: off)?(?: for (?:everyone|everybody|them|you"
        r"|all))?"
        r" if i (?:just )?(?:wasn'?t|weren'?t|was not|were not|didn'?t exist|was gone|were gone"
        r"|just "
        r"(?:disappeared|went away|died))\b"
        r"|\b(?:a|the|my) plan (?:to|for how to) (?:end (?:it|things|my life)|kill myself|die|do "
        r"it)\b"
        r"|\b(?:don'?t|do not|can'?t) see the point (?:anymore|any more|in (?:anything|living|"
        r"going on|carrying on|trying|any of (?:it|this))|of (?:anything|living|it all|any of "
        r"(?:it|this)))\b|\b(?:tired|sick|had enough) of (?:existing|living|being alive|life|being"
        r" here)\b"
        r"(?! (?:with|in|at|on|near|next|under|out of|off|by|here|there|alone|together)\b)"
        r"|\b(?:stop|end)\b[^a-z]{0,3}(?:\w+[^a-z]{1,3}){0,2}permanently\b"
        r"|\b(?:don'?t|do not|can'?t) see (?:a|any) (?:future|way out|point)\b(?! (?:in|with)\b| "
        r"for (?!me\b|myself\b))"
        r"|\bno point (?:in )?(?:me )?(?:being here|being alive|living|existing|carrying on)\b"
        r"|\b(?:can'?t|cannot|don'?t think i can|not sure i can) (?:keep|go on|carry on) "
        r"(?:living|existing|being alive)\b"
        r"|\b(?:sleep|go to sleep) forever\b|\bdisappear forever\b|\bnot be here anymore\b"
        r"|\b(?:want|wants|wanna|going|ready|need) to (?:just )?end (?:it|things|it all)\b(?! with)"
        r"|\bend(?:ing)? (?:things|it) (?:for good|forever|permanently)\b"
        r"|\b(?:better|happier|easier) (?:off )?without me\b"
        r"(?! for\b| tonight| this| at| on| while| in the)",
        person="first",
    ),
    Rule("self_harm", r"\b(?:overdose|overdosed|overdosing|od'?ing)\b", person="infer"),
    Rule(
        "self_harm",
        r"\b(?:stockpil\w*|hoard\w*|saving up|swallow(?:ed|ing)?|downed) "
        r"(?:a load of |loads of |all (?:of )?|a bunch of |a handful of |\d+ )?(?:my |the |his "
        r"|her )?"
        r"(?:meds|medication|pills|tablets|painkillers|paracetamol|sleeping pills)\b"
        r"|\b(?:took|taken|take|taking) (?:a load of |loads of |all (?:of )?|a bunch of |a handful "
        r"of |\d+ |too many |a whole (?:box|packet|bottle) of |the whole (?:box|packet|bottle) of )"
        r"(?:my |the |his |her )?"
        r"(?:meds|medication|pills|tablets|painkillers|paracetamol|sleeping pills)\b"
        r"|\b(?:hang|hanging|hanged) (?:myself|himself|herself)\b|\bnoose\b"
        r"|\bslit (?:my|his|her) wrists\b"
        r"|\b(?:step|stepping|jump|jumping|throw myself|walk|walking) in front of (?:a|the) "
        r"(?:train|bus|car|lorry|truck)\b",
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm",
        r"\btak(?:e|ing) (?:all )?(?:my|the|these|those|all the) (?:pills|tablets)\b"
        r"|\b(?:the|my) (?:pills|tablets) (?:in front of me|ready|lined up)\b"
        r"|\bswallow(?:ed|ing)? (?:all )?(?:my|the) (?:pills|tablets)\b"
        # pills put by: "enough tablets saved now", "been saving my tablets"
        r"|\benough (?:pills|tablets|meds|medication|painkillers|paracetamol|sleeping pills)\b"
        r"(?=[^.!?\n]{0,25}\b(?:saved|stashed|put away|hidden|to do it)\b)"
        r"|\b(?:pills|tablets|meds|painkillers|paracetamol) (?:saved|stashed|put away|hidden)"
        r"(?: up)?\b"
        r"|\b(?:saving|saved|stashing|stashed|collecting|collected) (?:up )?(?:all )?(?:my |the )?"
        r"(?:pills|tablets|meds|medication|painkillers|paracetamol|sleeping pills)\b",
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm",
        r"\b(?:scratch\w*|cut\w*|burn\w*) my (?:arms|wrists|legs|skin|thighs)\b"
        r"|\btill (?:they|it|i) bleeds?\b"
        r"|\b(?:cut|cutting|hurt|hurting|harm|harming|burn|burning|starve|starving)\s+myself\b"
        r"(?! (?:cooking|shaving|on|at|in the|playing|by accident))"
        r"|\bcutting again\b",
        negatable=True,
        person="first",
    ),
    Rule("self_harm", r"\bself[- ]?harm(?:ing)?\b", negatable=True, person="infer"),
    Rule(
        "self_harm",
        r"\bjump(?:ing)? (?:off|from|in front of)\b|\b(?:thinking|thought) (?:about|of) jumping\b"
        r"|\b(?:standing|stood|sitting|sat) (?:on|at) the (?:top of the |edge of the )?(?:edge|"
        r"bridge|ledge|roof|cliff|cliffs|clifftop|cliff top)\b(?! (?:cafe|café|walk|path|pub|bar))"
        r"|\bedge of the (?:platform|bridge|roof|cliff)\b"
        r"|\b(?:drive|driving|drove|crash|crashing) (?:my car |the car )?(?:into|off) (?:a |the )?"
        r"(?:wall|tree|bridge|lorry|truck|river|cliff)\b"
        r"|\b(?:bought|got|have|found|tied|'ve got) (?:a |the |some )?rope\b"
        r"|\b(?:sat|sitting|sit|stared|staring|looked|looking|held"
        r"|holding)\b[^.!?\n]{0,40}?\b(?:the"
        r"|a|my) (?:razor|razors|blade|blades|rope|belt|bottle of pills)\b"
        r"|\b(?:looked|looking|stared|staring|stood|standing) (?:at|down at|over|by|near) (?:the )?"
        r"(?:train )?(?:tracks|railway line|rails|drop|edge)\b|\brope\b[^.!?\n]{0,40}\bwhat it'?s "
        r"for\b"
        r"|\b(?:letters|notes) (?:are|have been|'re) (?:all )?(?:written|done|"
        r"finished|ready)\b(?=[^\n]{0,80}\b(?:peace|goodbye|sorry|ready|gone|after|dog|cat|"
        r"kids)\b)"
        r"|\bif i die\b|\bhow many (?:pills|tablets) (?:it would take|would it take|to)\b"
        r"|\b(?:every|all the) (?:pill|pills|tablet|tablets) in (?:this|the) house\b"
        r"|\bmake it through (?:tonight|the night|the weekend)\b"
        r"|\b(?:suicide|goodbye) (?:note|letter)s?\b|\bletters (?:for|to) everyone\b",
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm",
        # Indirect words: planning, researching, "just not being here".
        r"\b(?:looking up|looked up|look up|googl(?:e|ed|ing)|search(?:ed|ing)|research(?:ed|ing)|"
        r"reading up on|read up on|reading about|read about|looking at|looked at) (?:on )?how "
        r"(?:many|much|long|to)\b[^.!?\n]{0,40}?\b(?:pills?"
        r"|tablets?|paracetamol|painkillers|take|takes|die|kill|it takes|overdose|hang|drown|"
        r"bleed|end|lethal|fatal)\b"
        r"|\bhow many (?:\w+ )?(?:pills|tablets|paracetamol|painkillers|sleeping pills|"
        r"co-codamol|ibuprofen|aspirin) (?:it|would|does|to)\b"
        r"|\b(?:think|thinking|thought) (?:a lot |so much |more and more )?(?:about|of) (?:just )?"
        r"(?:stopping|ending it|ending things|driving (?:into|off)|swerving|jumping|stepping "
        r"(?:off|out)|disappearing for good)\b"
        r"|\b(?:letters?|notes?) (?:to|for) (?:my|everyone|the kids|all)\b[^\n]{0,40}?"
        r"\b(?:just in case|in case|when i'?m gone|for after)\b"
        r"|\b(?:stockpil\w*|hoard\w*|stash\w*|kept|keeping|hid|hidden|hiding|saved|saving|"
        r"collecting|counted|counting)\s+(?:[\w']+\s+){0,4}?(?:pills|tablets|meds|medication|"
        r"painkillers|paracetamol)\b"
        r"|\bwhat (?:does it|would it|will it|difference does it) (?:even )?(?:matter|make) if i "
        r"(?:just )?(?:die|died|do it|did it|was gone|wasn'?t here|disappeared|ended it|went)\b"
        r"|\bdo it myself\b(?=[^\n]{0,20}\bfirst\b)"
        r"|\b(?:i'?m|i am) (?:on|at) (?:the|a) (?:bridge|ledge|roof|rooftop|cliff|tracks|"
        r"railway|top of the|edge)\b(?![^\n]{0,40}\b(?:where are you|we said|meet (?:you|me)|"
        r"see you|waiting for you)\b)"
        r"|\b(?:hear your voice|talk to you|say goodbye) (?:one (?:more|last)|for the last) time\b"
        r"|\b(?:this is|it'?s) (?:my|the) last (?:message|text|time you'?ll hear)\b",
        negatable=True,
        person="infer",
    ),
    Rule(
        "self_harm",
        # In the writer's own words: notes left "just in case", researching painless ways,
        # hurting themselves.
        r"\bi(?:'ve| have)? (?:written|wrote|left|been writing|started writing) (?:\w+\s+){0,2}?"
        r"(?:letters|notes|goodbye (?:letters?|notes?))\b[^\n]{0,60}?\b(?:just in case|in case|"
        r"when i'?m gone|for after)\b"
        r"|\b(?:googl\w*|look(?:ing|ed)? up|search(?:ing|ed)?(?: for)?|research\w*|read(?:ing)? "
        r"about)\s+(?:\w+\s+){0,2}?(?:painless|quick|quickest|easy|easiest|surest)\s+"
        r"(?:ways?|methods?)\b"
        r"|\bpainless ways? to (?:die|go|do it|end it)\b"
        r"|\bi(?:'ve| have)? (?:cut|burnt|burned|scratched|bruised|hurt) (?:myself|my (?:arms?|"
        r"wrists?|legs?|thighs?|skin))\b(?! (?:cooking|shaving|on|at|in the|playing|by accident))"
        r"|\bi cut again\b|\b(?:started|start|been|was|am|i'?m) cutting (?:again|myself)\b"
        r"|\bi (?:self[- ]?harm(?:ed)?|relapsed (?:with|into) (?:cutting|self[- ]?harm))\b",
        negatable=True,
        person="first",
    ),
    Rule(
        "self_harm",
        # Indirect signs in the writer's own words: not seeing a future, a funeral pictured,
        # affairs put in order, "how easy it would be", "if I wasn't here".
        r"\b(?:don'?t|do not|can'?t|cannot) see myself (?:being )?(?:around|alive)"
        r"(?: much| for)?(?: (?:much )?longer| next year| in a year| by christmas)\b"
        r"|\bthink(?:ing)? (?:about )?how easy it would be\b(?!\s+to\s+(?:get|make|move|find|buy|"
        r"fix|learn|set|cook|change|start|quit|leave (?:my job|work)))"
        r"|\b(?:picturing|imagining|planning|thinking about|think about) my (?:own )?funeral\b"
        r"|\b(?:giving|gave|given) away (?:all )?my (?:things|stuff|belongings|possessions)\b"
        r"(?![^.!?\n]{0,40}\b(?:charity|move|moving|sofa|declutter\w*|ebay|vinted|gumtree|sell|"
        r"selling)\b)"
        r"|\bsort(?:ed|ing)? (?:out )?my (?:affairs|will)\b"
        r"|\b(?:gave|giving|given|rehomed|rehoming) (?:away )?my (?:cat|dog|pets?) (?:away|to)\b"
        r"[^.!?\n]{0,60}?"
        r"\b(?:sorted|sorting|calm|peace|ready|goodbye|won'?t need)\b"
        r"|\bwhat'?s (?:even )?the point (?:of|in) me\b(?! (?:going|coming|doing|asking|calling|"
        r"texting|buying|cooking|making|bothering|getting|booking|paying)\b)|\bwhat is (?:even"
        r" )?the point of me\b"
        r"|\bif i (?:wasn'?t|weren'?t|was not|were not|was no longer|wasn'?t around|weren'?t "
        r"around) (?:here|around|alive)?(?: anymore| any more)?\b(?=[^.!?\n]{0,40}?"
        r"\b(?:pain|hurt|end|stop|over|easier|better|relief|relieved|miss)\b)"
        r"|\b(?:pain|hurt|suffering) (?:would|will|could) (?:all )?(?:end|stop) if i\b"
        r"|\bthinking (?:about|of) (?:the )?(?:river|bridge|tracks|railway|train line|cliffs?|"
        r"canal|motorway bridge|multi-?storey)\b(?! (?:walk|trip|view|cafe|pub))",
        negatable=False,  # the patterns carry their own negations
        person="first",
    ),
    Rule(
        "stalking",
        r"\b(?:asking|asked|asks|been asking) (?:everyone|around|people|my friends|all my friends|"
        r"my family|my (?:mum|mom|dad|sister|brother|colleagues?|neighbours?)) (?:where|what) "
        r"(?:i|i'?ve|i'?m) (?:moved|live|am|went|work|living|staying|moved to)\b",
    ),
    Rule(
        "stalking",
        # watching from fake accounts, looking in through the windows
        r"\b(?:fake|secret|burner) (?:accounts?|profiles?|numbers?)\b"
        r"[^.!?\n]{0,50}?\b(?:look|looking|watch|watching|check|checking|message|messaging|"
        r"follow|following|view|viewing|stalk\w*)\b(?:\s+\w+){0,2}?\s+(?:my|me|mine|you|your|ur)\b"
        r"|\b(?:look|looking|looked|peer|peering|peered|staring|stared) (?:in|into|through) "
        r"(?:my|our|your|ur) (?:\w+ )?(?:windows?|letterbox|letter box)\b",
    ),
    Rule(
        "self_harm",
        # The negation is part of the wish: "thinking about just not being here".
        r"\b(?:think|thinking|thought) (?:a lot |so much |more and more )?(?:about|of) (?:just )?"
        r"not (?:being here|being around|existing|waking up|turning|braking|stopping|coming back)\b"
        r"|\b(?:just|about|of|rather) not (?:being|be) (?:here|around|alive)\b",
        person="infer",
    ),
    Rule(
        "self_harm",
        r"\b(?:i'?ll|i will|i'?m going to|i might|might) (?:just )?disappear\b"
        r"|\bi (?:just )?want to disappear\b|\bwish i could (?:just )?(?:disappear|vanish)\b"
        r"|\b(?:don'?t think|not sure|don'?t know if) i can (?:keep going|go on|carry on)\b"
        r"|\b(?:can'?t|cannot) (?:keep going|carry on)\b(?! with| like)"
        r"|\bwant (?:it all|everything|all of (?:it|this)) to (?:stop|end|be over)\b"
        r"(?![^.!?\n]{0,30}\b(?:so i can|exams?|week|shift|term|wedding|move|party)\b)"
        r"|\b(?:won'?t|will not) (?:have to )?(?:worry about|put up with|deal with|hear from) me "
        r"(?:much longer|for much longer|for long|after (?:tonight|today|this)|ever again)\b"
        r"(?![^.!?\n]{0,25}\b(?:i'?ll be at|i'?m (?:at|staying|going|off))\b)"
        r"|\btell (?:the kids|them|everyone|my \w+|mum|mom|him|her) (?:that )?i loved "
        r"(?:them|him|her|you)\b"
        r"|\b(?:nobody|no one|no-one) (?:will|would) (?:even )?(?:miss|notice) (?:me\b(?! if i "
        r"(?:left|leave|went|skipped|didn'?t (?:go|come)))|if i (?:was|were) (?:gone|dead|not "
        r"here|not around)\b|if i (?:died|disappeared|vanished|wasn'?t (?:here|around)|weren'?t "
        r"(?:here|around)|stopped existing|went missing|never came back)\b)"
        r"|\bdo something (?:stupid|drastic)\b|\bwhen i'?m (?:gone|dead|not here|not around)\b"
        r"|\b(?:can'?t|cannot|won'?t) (?:promise (?:i'?ll|i will) )?(?:still )?be (?:here|around|"
        r"alive) (?:tomorrow|much longer|for long|by morning)\b"
        r"|\b(?:don'?t think|doubt|not sure) i'?ll (?:still )?be (?:here|around|alive) (?:much "
        r"longer"
        r"|for long|tomorrow|next week|by|for christmas|for (?:my|his|her|their|\w+'s) birthday|"
        r"for (?:the summer|new year)|next (?:year|month)|to see)\b"
        r"|\b(?:nobody|no one|no-one) (?:would|will|'d|'ll) (?:even )?(?:care|notice|know) "
        r"(?:if|when) i\b(?! (?:left|leave|went|skipped|skip|didn'?t (?:go|come)|wore|was late)\b)"
        r"|\bwants? to (?:just )?(?:not exist|stop existing|not be here|not wake up)\b"
        r"|\bgiv(?:en|ing|e) away (?:all )?(?:my|his|her) (?:things|stuff|belongings|possessions|"
        r"clothes)\b(?![^.!?\n]{0,40}\b(?:charity|move|moving|sofa|declutter\w*|ebay|vinted|gumtree|sell|"
        r"selling)\b)"
        r"|\bwon'?t (?:be )?need(?:ing)? (?:them|it|any of (?:it|this)) (?:anymore"
        r"|where)\b"
        r"|\bi'?d (?:rather|sooner) (?:be dead|die)\b"
        r"|\b(?:can'?t|don'?t think i can|not sure i can) do (?:this|it) (?:anymore|any "
        r"more)\b(?=[^\n]{0,60}\b(?:tired of|everything|"
        r"exhausted|life|point|end|die|gone)\b)",
        person="first",
    ),
    Rule(
        "self_harm",
        r"\b(?:kill|killing|hurt|hurting|harm|harming|cut|cutting) (?:himself|herself|themselves)\b"
        r"|\b(?:end|take|ending|taking) (?:his|her|their) (?:own )?life\b"
        r"|\bdo(?:ing)? (?:himself|herself|themselves) in\b",
        negatable=True,
        person="third",
    ),
    # ------------------------------------------------------------------ third round
    # Wider forms of the kinds above: outcomes named instead of acts, weapons kept
    # somewhere, knowing who came and went, means and goodbyes in the writer's words.
    Rule(
        "violence",
        # The outcome named instead of the act: "you'll be in a box", "an accident".
        r"\b(?:you'?ll|you will|you'?re going to|you are going to|you'?re gonna|he'?ll|she'?ll"
        r"|you could|you might|you'?d) (?:\w+ )?(?:be|end up|wind up|go) (?:in|under|into) "
        r"(?:a |the )?(?:box|coffin|body bag|ground|grave|morgue|wheelchair|ditch|river|canal|"
        r"boot of (?:a|my|his|the) car)\b"
        r"|\b(?:you'?re|you are|you'?ll|you will|he'?s|she'?s) (?:going to |gonna )?"
        r"(?:have|meet|suffer) (?:a |an )?(?:little |nasty |terrible |tragic |horrible "
        r"|unfortunate "
        r")?(?:accident|fall)\b(?=[^.!?\n]{0,20}\b(?:one of these days|one day|soon|sooner or "
        r"later|some ?day|before long|any day now|if you'?re not careful)\b)"
        r"|\b(?:shame|pity|sad|terrible) if you (?:had|have|were to have|got in|ended up in|met) "
        r"(?:a |an )?(?:\w+ )?(?:accident|fall)\b"
        r"|\bmake (?:it|this|that) look like (?:an? )?(?:accident|suicide|you did it)\b"
        r"(?![^.!?\n]{0,40}\b(?:film|movie|book|episode|plot)\b)"
        r"|\bpeople (?:fall down (?:the )?stairs|have accidents|go missing|disappear)\b"
        r"(?=[^.!?\n]{0,20}\b(?:all the time|every day|you know|happens)\b)"
        r"|\b(?:don'?t|do not|never) (?:think|assume|imagine|believe) (?:you'?re|you are|you'?ll be"
        r"|you will be) safe\b(?! from (?:my|the|his|her) (?:cooking|jokes|singing))"
        r"|\byou'?re not safe (?:anywhere|there|in there|from me)\b|\bnowhere (?:is|will be) safe\b"
        r"|\b(?:should|better|had better|'d better|want to|might want to|start|keep) "
        r"(?:start )?look(?:ing)? over (?:your|ur) shoulder\b"
        r"|\b(?:i'?ve got|i have|i know|i'?ve still got) (?:people|mates|friends|lads|guys|"
        r"someone|somebody) (?:who|that)(?:'ll| will| would| can| could)(?: \w+)? (?:find|sort|"
        r"deal with|hurt|get|do|take care of|teach|visit|pay you|sort you|make|break|find out)\b"
        r"|\bwon'?t be the only (?:thing|one) (?:that )?(?:gets? |getting )?(?:slashed|smashed|"
        r"broken|burnt|burned|hurt|damaged|cut|stabbed|kicked in|done)\b"
        r"|\b(?:slash|slashed|slashing|smash|smashed|smashing|torch|torched|key|keyed|brick|"
        r"bricked) (?:your|ur|his|her|their|my) (?:new )?(?:tyres|tires|car|windows?|windscreen|"
        r"van)\b"
        r"|\byou'?ll see what happens\b"
        r"|\b(?:fear|scared|afraid|frightened|terrified) (?:of )?what (?:he|she|they)(?:'ll| will"
        r"| would|'d| might| could) do (?:to me|to us|next|if)\b",
    ),
    Rule(
        "violence",
        # A threat in quotes: she'll 'end me', he said he'd "sort me out".
        rf"\b{_MODAL}\s+['\"]{_HARM_VERB}\s+{_PEOPLE_OBJ}\b",
        negatable=True,
    ),
    *(
        Rule(
            kind,
            # Hurting a child: "he's been hitting their little boy".
            r"\b(?:hurt|hurts|hurting|hit|hits|hitting|beat|beats|beating|beaten|harm|harming|"
            r"harmed|smack\w*|slap\w*|shake|shakes|shook|shaking|punch\w*|kick\w*|chok\w*|"
            r"whack\w*|spank\w*|throttl\w*|strangl\w*|belted) (?:a|the|their|his|her|my|our|"
            r"your) (?:little |baby |young |\w+ year "
            r"old )?(?:boy|girl|son|daughter|kid|kids|child|children|baby|toddler|stepson|"
            r"stepdaughter)\b(?!'s|')"
            rf"|\bmake sure {_FAMILY} (?:pay|suffer)\b"
            rf"|\b{_FAMILY} (?:will|'ll|are going to|is going to|are gonna) (?:pay for (?:it|this|"
            r"that|what you)|suffer|pay the price)\b",
            negatable=True,
        )
        for kind in ("child_safety", "violence")
    ),
    Rule(
        "child_safety",
        # "the baby's fine. for now.", "not bringing the baby back", "see if they can stop me".
        rf"\b{_KIDS}(?:'s| is| are|'re) (?:fine|ok|okay|safe|alright|all right)\s*"
        r"[.!,-]*\s*(?:for now|at the moment|for the moment|for today|so far)\s*(?:[.!]|$)"
        r"|\b(?:not|isn'?t|won'?t|will not|never|refus\w* to) (?:be )?(?:bringing|giving|"
        r"handing|sending|returning|bring|give|hand|send|return) (?:the (?:baby|kids?|children|"
        r"boys|girls)|them|him|her|my \w+|our \w+) (?:back|home)\b(?! (?:late|early|until|till|"
        r"at|by|before|tonight|today|on time|in time|for (?:tea|dinner|lunch))\b)"
        rf"|\b(?:take|grab|snatch|keep) (?:her|him|them|{_FAMILY})\b[^\n]{{0,80}}\bstop me\b"
        rf"|\bstop me\b[^\n]{{0,60}}\b(?:take|grab|snatch|keep) (?:her|him|them|{_FAMILY})\b"
        rf"|\b(?:scared|afraid|frightened|terrified) (?:to|of) (?:take|taking|send|sending|leave"
        rf"|leaving|let|letting) {_FAMILY}\b[^.!?\n]{{0,50}}\bin case (?:he|she|they)\b"
        rf"|\b(?:packed|packing) (?:up )?(?:his|her|their|the (?:baby|kids)'?s?) (?:whole )?"
        r"(?:room|things|stuff|clothes|bags?)\b(?=[^\n]{0,80}\b(?:not|never|won'?t|abroad)\b)",
    ),
    Rule(
        "weapon",
        # A weapon kept somewhere: "Dad's old shotgun is still in the cabinet", "the bat in
        # the boot", "a baseball bat by the bed".
        rf"\b{_WEAPON}(?:'s| is| are)? "
        r"(?:still |always |now |kept )?(?:in|under|by|behind|beside|next to|on top of) "
        r"(?:the|his|her|my|our|their|your) (?:\w+ )?(?:cabinet|boot|car|bed|pillow|bedside "
        r"drawer|wardrobe|glovebox|glove box|shed|garage|van|door|seat|mattress|safe|loft|"
        r"jacket|coat|bag|pocket)\b"
        r"|\b(?:have|has|keep|keeps|kept|got|'ve got|still have|carries|carry) (?:a|the|his|her|"
        r"my) (?:cricket |baseball |metal |wooden |golf )?(?:bat|club|iron bar|bar|poker|"
        r"cosh|knuckle duster|knuckledusters?) (?:in|under|by|behind|beside|next to) "
        r"(?:the|his|her|my|our) (?:\w+ )?(?:boot|car|bed|door|seat|van|cabinet|pillow)\b",
        negatable=True,
    ),
    Rule(
        "stalking",
        # Knowing who came and went, where they park, which flat, which account.
        r"\bwho (?:was|were|is) (?:the|that|this) (?:guy|man|bloke|fella|woman|girl|lad|car|van|"
        r"person) (?:who|that)?(?: \w+)? ?(?:left|came|leaving|coming|at|outside|round|visited|"
        r"dropped) (?:your|yours|ur|your place|the flat|the house)\b"
        r"|\bi know where (?:your (?:new )?\w+) (?:lives?|works?|parks?|drinks?|goes|stays?|"
        r"trains?|sleeps?)\b|\btell (?:your|ur) (?:new )?\w+ (?:that )?i know where (?:he|she|they)"
        r"\b"
        r"|\b(?:man|woman|guy|bloke|someone|somebody|he|she|they)\b[^.!?\n]{0,40}?\b(?:asking|"
        r"been asking|asked around) (?:\w+ ){0,3}?(?:which|what) (?:flat|apartment|house|room|"
        r"door|number|floor|building|address|unit) (?:was|is|i|you)\b"
        r"|\b(?:app|apps|software|program|something) (?:on|in) (?:my|your) (?:phone|laptop|car|"
        r"computer|tablet|ipad)\b[^.!?\n]{0,20}?\b(?:i|you) (?:never|didn'?t|did not) "
        r"(?:install|download|put|add)\w*\b(?! (?:it )?myself)"
        r"|\b(?:fake|secret|burner|new|anonymous) (?:accounts?|profiles?)\b[^.!?\n]{0,60}?"
        r"\b(?:watch\w*|view\w*|look\w*|like\w*|check\w*) (?:\w+ ){0,5}?(?:my|your|ur) "
        r"(?:stories|story|posts|photos|pictures|profile|status)\b"
        r"|\b(?:no caller id|withheld number|private number|unknown number|blocked number)\b"
        r"[^\n]{0,60}?\b(?:nobody|no one|no-one|nothing|just breathing|hangs? up|every (?:night"
        r"|day|morning)|again)\b"
        r"|\bevery (?:night|day|morning|evening)\b[^.!?\n]{0,40}?\b(?:no caller id|withheld|"
        r"private number|unknown number|silent call)\b|\bsilent (?:phone )?calls?\b"
        r"|\b(?:same|a|that|his|her) (?:\w+ ){0,2}(?:car|van|audi|bmw|motorbike|bike)\b"
        r"[^.!?\n]{0,40}?\bbehind me\b[^.!?\n]{0,60}?\b(?:all the way|for miles|again|every|"
        r"round|followed|following|days?|times|twice)\b"
        r"|\b(?:turn(?:ed|s|ing)?|show(?:ed|s|ing)?) up (?:at|outside) (?:her|his|their|\w+'s)"
        r" (?:house|flat|place|work|door|home)\b[^.!?\n]{0,60}?\b(?:looking for|after) (?:me|you)"
        r"\b|\bfollowed (?:me|you|us) (?:\w+ )?to\b|\bi followed you\b"
        r"|\b(?:new address|new number|new flat|new house|new place|my address|my number)\b"
        r"[^\n]{0,60}?\b(?:nobody|no one|no-one) (?:has|knows|had|knew) (?:it|about|of it)\b"
        r"(?! yet)"
        r"|\b(?:nobody|no one|no-one) (?:has|knows|had|knew) (?:the address|my (?:new )?"
        r"(?:address|number)|where i (?:live|am|moved))\b(?: except| apart from| but| other than"
        r"| besides)",
    ),
    Rule(
        "self_harm",
        # Means and places: pills saved up, the top floor, "won't come back down".
        r"\b(?:stockpil\w*|hoard\w*|stash\w*|saving up|saved up|collecting|counting)\s+(?:up\s+)?"
        r"(?:my|the|his|her|all (?:my|the))\s+(?:sertraline|citalopram|fluoxetine|diazepam|"
        r"zopiclone|codeine|co-codamol|tramadol|insulin|antidepressants|"
        r"sleeping (?:pills|tablets)|morphine|oxycodone|propranolol|amitriptyline|mirtazapine)\b"
        r"|\b(?:won'?t|will not|not going to|never) (?:be )?(?:coming|come|get) (?:back )?down\b"
        r"(?! (?:for|to|until|till|the stairs|here|there|today|tonight)\b)"
        r"|\b(?:top (?:floor|level|storey|deck)|roof) of (?:the |a )?(?:multi-?storey|car park|"
        r"building|block|tower|flats)\b(?=[^\n]{0,80}\b(?:won'?t|never|last|times|alone|"
        r"edge|jump)\b)",
        person="infer",
    ),
    Rule(
        "self_harm",
        # In the writer's own words: places looked up, burns and cuts "again", a note to be
        # found, a pet given away and "ready".
        r"\b(?:googl\w*|look(?:ed|ing)? up|search\w*|research\w*|check(?:ed|ing)? out)\s+"
        r"(?:for\s+)?"
        r"(?:the\s+)?(?:highest|tallest|nearest high|closest high) (?:bridges?|buildings?|"
        r"cliffs?|car parks?|multi-?storeys?|roofs?|drops?|railway bridges?) (?:near me|nearby|"
        r"around here|in (?:town|the area|the city)|near here|round here)\b"
        r"|\b(?:burn\w*|cut\w*|scratch\w*|carv\w*|slic\w*) (?:my|me) (?:arm|arms|wrist|wrists|"
        r"leg|legs|thigh|thighs|skin|stomach|hip|hips)\b[^.!?\n]{0,30}?\b(?:again|lighter|"
        r"cigarette|razor|blade|compass|on purpose|till|until|to feel)\b"
        r"|\b(?:hope|wish|pray) i (?:just )?(?:don'?t|never|won'?t|do not|will not|wouldn'?t) "
        r"wake up\b(?! (?:with|to|early|late|in|on|at|before|after|feeling|hungover|sick|grumpy"
        r"|tired|too)\b)"
        r"|\b(?:nobody|no one|no-one) (?:will|would|'d) (?:even )?(?:realise|realize|care|notice|"
        r"miss me) (?:if|when) i (?:was|were|'m|am) (?:gone|dead|not here)\b"
        r"|\bi (?:\w+ )?(?:wrote|written|writing|left) (?:a|the|my) (?:note|letter)\b[^\n]{0,80}?"
        r"\b(?:use it|(?:\w+'ll|will|to) find it|going to use|for after|when i'?m gone|goodbye|"
        r"read it after|after i'?m)\b"
        r"|\b(?:given|gave|giving|rehomed|rehoming) (?:away )?(?:my|the) (?:cat|dog|pets?|"
        r"rabbit|guinea pigs?|bird|fish) (?:away|to)\b[^\n]{0,80}?\b(?:i'?m (?:\w+ )?ready|ready"
        r" now|cleared "
        r"out|sorted|goodbye|won'?t need|at peace)\b",
        person="first",
    ),
    Rule(
        "violence",
        # Reported past events in more words: knocked down, bitten, scalded, forced.
        r"\b(?:scratch(?:ed|es)?|bit|bites|bitten|scald(?:ed|s)?|clawed|gouged|pinched|"
        r"elbowed|kneed|whacked|thumped|smacked|walloped|belted) (?:me|her|him|us|(?:my|her|his) "
        r"(?:face|arm|arms|neck|hand|hands|back|leg|legs|ear|lip|cheek|chest|stomach))\b"
        r"|\b(?:knocked|pushed|shoved|threw|flung|dragged|kicked|punched|slapped|hit|beat|thrown) "
        r"(?:me|her|him|us) (?:to the (?:floor|ground)|down (?:the|on|onto|to)|over (?:the|a)|out "
        r"cold|unconscious|across the (?:room|floor|kitchen|hall)|into (?:the|a) (?:wall|door|"
        r"table|bookcase|cupboard|fridge|window|radiator|mirror|car|road))\b"
        r"|\b(?:threw|throws|poured|chucked|flung) (?:boiling |hot |scalding )?(?:water|tea|coffee|"
        r"a drink|acid|bleach|oil|soup) (?:at|over|on) (?:me|us|her|him|my)\b"
        r"|\bbruises (?:on|round|around|all over) "
        r"(?:my|her|his) (?:neck|throat|face|wrists?|upper arms?)\b|\bfingertip bruises\b"
        r"|\bforc(?:ed|es|ing) (?:himself|herself) on (?:me|her)\b|\bsexually assault\w*"
        r"|\b(?:didn'?t|did not|wouldn'?t|would not) stop when i (?:said no|told him to stop|was "
        r"crying)\b|\bmade me (?:have sex|sleep with (?:him|her)|do things)\b",
        needs_person_subject=True,
    ),
    Rule(
        "violence",
        # Threats: "see what I do", faces ruined, visits paid, not making it to court.
        r"\b(?:and|then|just) (?:see|watch) what i (?:do|'ll do|will do|'m capable of)\b"
        r"|\b(?:ruin|rearrange|mess up|smash in|kick in|bust|split|bloody|mark|cut up|carve up) "
        r"(?:your|ur|his|her|their) (?:pretty |little |new |stupid |ugly )?(?:face|head|nose|"
        r"teeth|jaw|legs|kneecaps|eyes?|lip)\b"
        r"|\byou (?:won'?t|will not|aren'?t going to|ain'?t gonna) (?:live|survive) "
        r"(?:to|till|until|long enough|past|through)\b"
        r"|\byou won'?t make it to (?:court|the court date|the hearing|the trial|your birthday|"
        r"christmas|the weekend)\b"
        r"|\b(?:watch|see|wait and see|wait till you see) what happens to (?:your|ur|him|her|them)"
        r"\b"
        r"|\b(?:your|ur) (?:new )?(?:boyfriend|girlfriend|fella|man|bloke|partner|husband|wife|"
        r"mate|friend)(?:'s| is) (?:going to|gonna|about to) get a (?:little |nasty )?visit\b"
        r"|\b(?:i'?ll|i will|i'?m going to|i'?m gonna|gonna) (?:be )?pay(?:ing)? (?:him|her|them|"
        r"(?:your|ur) (?:new )?(?:boyfriend|girlfriend|fella|man|bloke|partner|husband|wife)) a "
        r"(?:little |nasty )?visit\b"
        r"|\b(?:scared|afraid|frightened|terrified|fear) (?:of )?what (?:he|she|they)(?:'ll| will"
        r"| would|'d| might| could) do (?:when|once)\b(?![^.!?\n]{0,60}(?:\bhaha|\blol\b|😂|🤣))",
    ),
    Rule(
        "stalking",
        r"\byou'?ll turn (?:a)?round and (?:i'?ll|i will) be (?:there|right there|behind you)\b"
        r"|\b(?:made|created|set up|making|using|opened|started) (?:a |another |yet another )?"
        r"(?:new|fake|second|different|secret|burner) (?:account|profile|number|page|email)s?\b"
        r"(?=[^.!?\n]{0,60}\b(?:after i blocked|to (?:follow|message|contact|watch|stalk|get "
        r"(?:round|around)|see|view|text|call|add|find|look at) (?:me|my)\b))"
        r"|\b(?:knows?|found|got|has|had|getting) (?:my|our) (?:new )?(?:address|number|postcode"
        r"|location|shift pattern|rota|work address)\b[^.!?\n]{0,60}?\b(?:i (?:never|didn'?t|did "
        r"not|haven'?t) (?:gave|given|give|told|tell|shared)|nobody|no one|no-one)\b"
        r"|\b(?:keep|kept|keeps|i'?ve been) seeing (?:him|her|them|his car|her car|his van)\b"
        r"[^.!?\n]{0,40}?\b(?:my (?:road|street|house|flat|work|building|gate)|outside|near my|"
        r"everywhere|wherever)\b"
        r"|\b(?:he|she|they|someone|somebody)(?:'s| has| have|'ve| is| was| keeps?)? (?:been )?"
        r"(?:going|gone|went|goes|go) through (?:my|our) (?:bins|rubbish|post|mail|recycling)\b"
        r"|\b(?:blocking|changing your number|moving|hiding|running) (?:me )?(?:won'?t|will not|"
        r"doesn'?t|isn'?t going to|is not going to) (?:stop me|save you|keep me away)\b"
        r"|\bi (?:already )?(?:know|have|got|'ve got) (?:your|ur) new (?:number|address|email|"
        r"account|place)\b"
        r"|\b(?:think|know|sure|worried|scared|afraid) (?:that )?(?:he|she|they) (?:still )?(?:has|"
        r"have|'s got|kept|copied|cut) (?:a|my|the) (?:spare )?key\b(?! to (?:the|his|her|their) "
        r"(?:office|shed|car|garage|van|locker|gym|school|building|work))"
        r"|\b(?:things|stuff) (?:have been |being |been |keep being |keep getting )?(?:moved|"
        r"going missing)\b[^.!?\n]{0,40}\b(?:when i'?m out|while i'?m out|while i was out|when i "
        r"was out)\b",
    ),
    Rule(
        "stalking",
        # A message that shows the sender saw the user today: "nice jacket today".
        r"\b(?:nice|lovely|like (?:the|your|that)|love (?:the|your|that)|liked (?:the|your)|cute) "
        r"(?:new )?(?:jacket|coat|dress|top|hair|haircut|shoes|boots|outfit|scarf|skirt|jeans|"
        r"jumper|hat|trainers)\b[^.!?\n]{0,25}?\b(?:today|this morning|yesterday|last night|"
        r"tonight|earlier)(?=\s*(?:[.]|$))"
        r"|\byou were (?:at|in|outside|leaving|coming out of) (?:the |your |that )?\w+(?: \w+)? "
        r"(?:at \d+(?: \w+){0,3}|again(?: \w+){0,3}|this morning|last night|earlier)"
        r"(?=\s*(?:[.!,]|$))",
        source="incoming",
    ),
    Rule(
        "self_harm",
        # Plans, goodbyes, a way out, a burden, means ready.
        r"\b(?:got|have|made) a plan\b[^.!?\n]{0,10}\band i(?:'ve)? (?:know|picked|chosen|set|"
        r"decided) (?:when|how|where|the date|a date|the day)\b(?!\s+(?:i'?ll|i will|to|we|he|she"
        r"|they|i'?m|i am)\b)"
        r"|\bi (?:won'?t|will not|'m not going to) be (?:a|your|anyone'?s) burden (?:anymore|any "
        r"more|much longer|for long|after (?:tonight|today))\b"
        r"|\bsorry for everything\b(?! (?:today|tonight|earlier|yesterday|last night|this "
        r"morning))(?![^\n]{0,80}\bsee you\b)[^\n]{0,60}?\b(?:love you all|goodbye|look after|take"
        r" care of|"
        r"tell (?:the kids|mum|mom|everyone)|won'?t be)\b"
        r"|\bgoodbye\b[^\n]{0,40}?\bsorry for everything\b"
        r"|\bonly (?:one )?way out\b(?! of (?:the|a|that)\b| is (?:through|to|past|via|by)\b)"
        r"|\bno way out (?:of this )?(?:except|but|apart from) one\b"
        r"|\b(?:i'?m|i am|i feel like) (?:such |just |nothing but )?a burden (?:to|on) "
        r"(?:everyone|everybody|my family|you all|all of you|the world)\b"
        r"|\b(?:relieved|better off|happier) if i (?:was|were) (?:gone|dead|not here)\b"
        r"|\b(?:easy|tempted|tempting|want(?:ed)? to|thought about|thinking about|could) (?:to )?"
        r"(?:just )?(?:step|stepping|jump|jumping|walk|walking) (?:off|in front of|into|from) "
        r"(?:the|a) (?:platform|bridge|ledge|roof|edge|cliff|train|tracks|balcony|building|"
        r"traffic)\b"
        r"|\bhow (?:much|many) (?:\w+ )?(?:insulin|paracetamol|pills|tablets|painkillers|"
        r"co-codamol|ibuprofen|aspirin|codeine|morphine|sertraline|antidepressants) (?:it would "
        r"take|would it take|(?:it )?takes? to (?:die|kill|overdose|be fatal)|is (?:lethal"
        r"|fatal))\b"
        r"|\b(?:i'?ve got|i have|got) (?:the|my|all (?:the|my)) (?:pills|tablets|rope|razor|"
        r"razors|blades?) (?:here|ready|in front of me|with me|next to me|lined up)\b"
        r"(?! (?:for|to give|to drop|to take back)\b)",
        person="infer",
    ),
    Rule(
        "self_harm",
        r"\bthis is (?:my )?goodbye\b(?! to (?!(?:you|everyone|you all|all of you)\b))"
        r"|\bi (?:won'?t|will not|'m not going to) be (?:a|your|anyone'?s) (?:problem|bother) "
        r"(?:anymore|any more|much longer|for long|after (?:tonight|today))\b",
        person="first",
        source="user",
    ),
    Rule(
        "self_harm",
        r"\b(?:he|she|they|my ex|his|her)\b[^.!?\n]{0,30}?\b(?:sent|posted|showed) (?:me |us )?"
        r"(?:a )?(?:photo|picture|pic|video|selfie|snap) of (?:a|the|his|her|some) (?:rope|noose|"
        r"pills|tablets|razor|blade|cuts|wrists?)\b",
        person="third",
    ),
    *(
        Rule(
            kind,
            # Rough handling and driving drunk with the children.
            r"\b(?:grab\w*|yank\w*|drag\w*|shov\w*|squeez\w*|pinch\w*|throw\w*|threw) "
            rf"(?:{_FAMILY}|the kids|the baby) (?:by (?:the|his|her|their) (?:arm|arms|hair|neck|"
            r"collar|throat|ear|wrist)|so hard|against (?:the|a)|across (?:the|a) (?:room|floor)|"
            r"into (?:the|a) (?:wall|door|car)|down (?:the|on))\b"
            rf"|\b(?:bruises|marks) on {_FAMILY}\b",
            negatable=True,
        )
        for kind in ("child_safety", "violence")
    ),
    Rule(
        "child_safety",
        rf"\b(?:drive|drives|drove|driving) (?:\w+ ){{0,2}}?(?:{_FAMILY}|the kids)(?: \w+){{0,3}}? "
        r"(?:drunk|high|stoned|after drinking|over the limit|off his face|off her face)\b"
        r"|\b(?:take|taking|took)(?<!you take)(?<!you taking)(?<!you took)(?<!you ever take)"
        rf"(?<!u ever take) (?:the kids|{_FAMILY}|them) "
        r"(?:off|away from) (?:you|u|me)\b"
        r"(?! for\b)",
    ),
    Rule(
        "violence",
        # Threats to property and person, said sideways.
        r"\bhope (?:your|ur) (?:brakes|tyres|tires|boiler|gas) (?:don'?t|doesn'?t|won'?t|never) "
        r"(?:fail|blow|explode|catch fire|leak)\b"
        r"|\b(?:shame|pity) if (?:your (?:lovely |"
        r"little |nice |new )?\w+|that (?:lovely |little |nice |new )?\w+) (?:burned|burnt|caught "
        r"fire|went up in flames|got (?:burned|burnt|smashed|damaged|hurt|broken)|burned down|"
        r"burnt down|had an accident)\b"
        r"|\b(?:shame|pity) if it (?:burned|burnt) down\b"
        r"|\bnext time i see (?:you|u|him|her)\b[^.!?\n]{0,30}\b(?:not holding back|won'?t hold "
        r"back|you'?re (?:dead|finished|getting it)|watch out)\b"
        r"|\b(?:even if|if) i (?:have|need) to (?:drag|carry|force) (?:you|u)\b"
        r"|\b(?:i'?ll|i will|i'?d|i would|happy to|willing to|i don'?t mind|i'?ll gladly) "
        r"(?:gladly "
        r")?(?:do|serve) (?:time|life|a life sentence|a stretch|prison|jail) (?:for (?:you|u|her|"
        r"him|it|this)|over you)\b"
        r"|\b(?:i know|i'?ve got|i have) (?:people|someone|somebody|blokes|lads) (?:who|that)(?:'d"
        r"| "
        r"would| will|'ll) do (?:it|you|him|her) (?:for (?:a (?:hundred|grand|few quid|tenner|"
        r"score|fiver|bag)|\d+|cash)|in|over)\b"
        r"|\b(?:set fire to|set light to|torch|petrol bomb|firebomb) (?:your|ur|his|her|their|the)"
        r" (?:car|house|flat|place|home|front door|door|van)\b"
        r"|\bsay goodbye to (?:your|ur) (?:pretty |little |\w+ )?(?:face|teeth|legs|kneecaps|"
        r"looks)\b"
        r"|\bi'?ll make sure of it\b[^\n]{0,60}\byou won'?t (?:be able to )?(?:walk|see|"
        r"talk|breathe|stand)\b",
    ),
    Rule(
        "violence",
        # What happened, in the user's words: A&E after he got angry, "he's violent".
        r"\b(?:he|she|they) (?:got|gets|was|were) (?:angry|mad|violent|physical)\b"
        r"[^.!?\n]{0,40}\bi (?:ended up|end up|was|'ve been|went) (?:in|to) (?:a&e|hospital|"
        r"casualty|the hospital)\b"
        r"|\b(?:he|she|they|he'?s|she'?s|my (?:ex|husband|wife|partner|boyfriend|girlfriend|dad|"
        r"mum|mom|father|mother|stepdad|brother))\b(?: \w+){0,2}? (?:is|was|gets|got|can be|'s|"
        r"becomes|turns|been) (?:\w+ )?(?:violent|physical with (?:me|us|the kids)|handy with "
        r"(?:his|her) fists)\b"
        r"|\b(?:he|she)(?:'s| is| was| gets| can get| got| has been|'s been) (?:\w+ )?violent\b"
        r"(?! (?:on the (?:pitch|field|court|ice)|in (?:the )?(?:game|games|ring|match|film"
        r"|movie)))",
        negatable=True,
    ),
    Rule(
        "stalking",
        r"\b(?:to tell|told|telling|asking|asked|find out|found out|finding out) (?:him|her|them) "
        r"(?:what|which|where|when) (?:shifts?|hours|days?|times?|route|bus|train|class|gym|school|"
        r"nursery|flat|address)\b (?:i'?m|i|my)\b"
        r"|\b(?:he|she|they)\b[^.!?\n]{0,30}\b(?:asking|asked|finding out|found out|knows?) "
        r"(?:what|which) (?:shifts?|hours) i'?m\b"
        r"|\b(?:delivery|card|letter|flowers|parcel|present|note)\b[^.!?\n]{0,40}\bnew (?:flat|"
        r"address|house|place)\b[^.!?\n]{0,20}\b(?:which|that) (?:nobody|no one|no-one) (?:knows|"
        r"knew) about\b(?! yet)",
    ),
    Rule(
        "stalking",
        r"\bi (?:see|saw|noticed|notice) (?:you'?ve|you have|you) (?:changed|cut|dyed|had) "
        r"(?:your|ur) hair(?: cut| done)?(?=\s*(?:\.|$))",
        source="incoming",
    ),
    Rule(
        "child_safety",
        rf"\block(?:s|ed|ing)? (?:{_FAMILY}|the kids) (?:in|out)\b(?=[^.!?\n]{{0,40}}\b(?:when "
        r"(?:he|she)(?:'s| is| gets)? (?:angry|drunk|mad|in a (?:mood|rage))|for hours|all "
        r"(?:night|day)|as (?:a )?punishment|without food|in the dark)\b)",
    ),
    Rule(
        "self_harm",
        # Means and intent in the writer's own words.
        r"\b(?:swerve|swerving|drive|driving|steer|steering|walk|walking|step|stepping|run|running)"
        r" (?:\w+ )?(?:into|in front of) (?:oncoming )?(?:traffic|a lorry|a bus|a train|a truck)\b"
        r"|\b(?:garage|car) with the engine running\b|\bengine running in the garage\b"
        r"|\bhose(?:pipe)? (?:to|from|on|into) the exhaust\b"
        r"|\b(?:written|wrote|made|sorted|updated) (?:out )?my will\b[^\n]{0,60}\b(?:instructions|"
        r"letters?|goodbye|the cat|the dog|who gets|ready)\b"
        r"|\b(?:punch|punching|punched|slap|slapping|slapped|bite|biting|pinch|pinching) myself\b"
        r"(?! (?:awake|to (?:stay|keep|wake) (?:awake|up)))"
        r"|\b(?:not going to|won'?t) be (?:here|around|alive) (?:much longer|for long|by|after)\b"
        r"(?=[^\n]{0,60}\b(?:i'?ve decided|made up my mind|made my decision|it'?s decided|i'?m "
        r"ready)\s*(?:[.!,]|$))"
        r"|\b(?:don'?t|do not) care (?:what happens to me|if i (?:live|die|wake up|make it)"
        r"|whether "
        r"i (?:live|die))\b"
        r"|\b(?:razor ?blades?|razors|blades|pills|tablets|rope)\b[^.!?\n]{0,40}\b(?:keep|kept"
        r"|been)"
        r" (?:holding|looking at|staring at|counting|touching) (?:them|it)\b"
        r"|\b(?:move on|forget (?:about )?me|be fine|be happier|be relieved|cope|manage)\b"
        r"[^.!?\n]{0,25}\bif i (?:was|were) (?:dead|gone)\b",
        person="first",
    ),
    Rule(
        "violence",
        # Not safe at home; held under water.
        r"\b(?:i'?m not|i am not|i don'?t feel|i do not feel|i no longer feel|we'?re not|we are not"
        r"|i never feel|the kids aren'?t|the kids are not) (?:\w+ )?safe (?:at home|in (?:my|our|"
        r"this) (?:own )?(?:home|house|flat)|with (?:him|her)|around (?:him|her)|when (?:he|she)'?s"
        r"(?: \w+)?)\b(?![^.!?\n]{0,30}\b(?:cold|flu|bug|virus|covid|germs|lol|haha)\b)"
        r"|\b(?:held|holding|pushed|forced|holds|pushes) (?:me|her|him|my head|her head) (?:under|"
        r"underwater|under the water)\b",
    ),
    Rule(
        "self_harm",
        r"\b(?:think|thinking|thought|dream|dreaming|fantasi[sz]e|fantasi[sz]ing) (?:a lot |"
        r"constantly |all the time |every day |so much )?(?:about|of) (?:dying|being dead|killing "
        r"myself|not existing|not being alive|ending it all|ending everything)\b"
        r"|\b(?:feel like|want to|wanna|going to|thinking of|thinking about) (?:just )?(?:ending"
        r"|end)"
        r" (?:everything|it all|my life)\b(?! on a| with a| early| at| for the)"
        r"|\b(?:nothing left|no point|can'?t do this|can'?t go on|no way through)\b[^\n]{0,40}\b"
        r"(?:sorted|got|ready|counted|lined up|gathered|saved) (?:the|my|all (?:the|my)|enough) "
        r"(?:pills|tablets)\b(?! for\b)",
        person="infer",
    ),
    Rule(
        "self_harm",
        # More of the writer's own crisis words: the pain to stop for good, ways to do it,
        # voices, pills taken or mixed, not promising to be safe.
        r"\b(?:giv(?:en|ing|e)|gave) (?:all )?my (?:things|stuff|belongings|possessions) away\b"
        r"(?![^.!?\n]{0,40}\b(?:charity|move|moving|sofa|declutter\w*|ebay|vinted|gumtree|sell|"
        r"selling)\b)"
        r"|\b(?:want|need|wish|make) (?:the|this|all the|my) (?:pain|hurt|suffering) (?:to )?"
        r"(?:stop|end|go away) (?:for good|forever|for ever|permanently)\b(?![^.!?\n]{0,30}\b(?:op|"
        r"operation|surgery|physio|doctor|gp|knee|back|tooth|dentist|hip)\b)"
        r"|\b(?:drowning|hopeless|empty|numb|worthless|exhausted|tired of everything)\b"
        r"[^.!?\n]{0,40}\bwant (?:it|this|everything|it all) to (?:end|stop)\b"
        r"|\b(?:thinking|thought|think) (?:of|about) (?:ways|how) to (?:do it|end it|go|die|not be "
        r"here)\b(?! (?:cheaper|better|faster|quicker|differently|properly|right|without|for)\b)"
        r"|\bways to (?:die|kill myself|end it)\b"
        r"|\b(?:voices?|something) (?:in my head )?(?:keeps? |is |are )?(?:telling|tells|told) me "
        r"to (?:jump|die|kill|end|hurt|cut|do it)\b"
        r"|\b(?:mixing|mixed|mix) (?:it|alcohol|drink|vodka|wine|booze) with (?:my|the) (?:pills|"
        r"tablets|meds|medication)\b(?![^.!?\n]{0,40}\b(?:fine|ok|okay|safe|pharmacist|doctor|gp|"
        r"allowed)\b)"
        r"|\b(?:scared|afraid|frightened|terrified|worried) (?:of )?what i (?:might|will|could|'ll|"
        r"would|'d) do (?:to myself|tonight)\b|\bwhat i(?:'ll| will| might| could|'d| would) do "
        r"to myself\b"
        r"|\b(?:can'?t|cannot|don'?t think i can|not sure i can|won'?t) (?:promise|guarantee|say) "
        r"(?:that )?i'?ll (?:be|stay|keep myself) safe\b"
        r"|\b(?:don'?t|do not) (?:feel|think i'?m|know if i'?m) safe (?:from myself|with myself)\b"
        r"|\bno reason (?:for me )?to (?:stay|be here|live|keep going|go on|carry on|stick around)"
        r"\b(?! (?:at|in|for|with|late|longer|till|until)\b)"
        r"|\b(?:thinking|thought) (?:about|of) (?:walking|wading|stepping|jumping|going) (?:in"
        r"(?=\s*(?:[.!]|$))|into the (?:river|sea|water|canal|lake))",
        person="first",
    ),
    Rule(
        "self_harm",
        r"\b(?:took|taken|swallowed|downed) (?:\d+|two|three|four|five|six|ten|twelve|fifteen|"
        r"twenty|thirty|forty|fifty|a hundred|all|half|loads|most|the rest) of (?:my|the|his|her|"
        r"those|these|mum's|dad's) (?:pills|tablets|meds|medication|painkillers|paracetamol|"
        r"sleeping pills)\b(?! (?:to|round|over|back|with|into|in|for)\b)"
        r"|\bif you (?:leave|go|don'?t|won'?t|block)\b[^.!?\n]{0,40}\bi(?:'ll| will) (?:just )?end"
        r" it"
        r"\b(?! with| up\b)",
        person="infer",
    ),
    Rule(
        "self_harm",
        r"\b(?:he|she|they)\b[^.!?\n]{0,20}\b(?:posted|sent|wrote|left) (?:a |me a |us a )?"
        r"(?:goodbye|farewell|suicide) (?:message|note|letter|post|text|video)\b(?![^.!?\n]{0,30}"
        r"\b(?:job|colleagues|team|work|linkedin|retire\w*|leaving do)\b)",
        person="third",
    ),
    Rule(
        "violence",
        r"\b(?:burn|torch|smash|set fire to|crash|blow up|petrol)\b[^.!?\n]{0,40}\b(?:and|with) "
        r"you (?:with it|in it|inside)\b"
        r"|\b(?:remember|you know) what happened (?:the )?last time (?:you|u) (?:crossed me|defied "
        r"me|lied to me|disobeyed me|went behind my back|answered (?:me )?back|embarrassed me|left "
        r"me|blocked me|ignored me|tried (?:to leave|that|it))\b"
        r"|\b(?:smashed|broke|brought|cracked) (?:a|the|his|her) \w+ (?:down )?(?:over|on|"
        r"against) (?:my|her|his) (?:head|face|back)\b"
        r"|\brun (?:me|you|her|him|us) over\b|\b(?:drove|driving|drive|aimed the car) (?:at|"
        r"towards|straight at) (?:me|us|her|him)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:got|found|has|knows|getting) (?:hold of )?(?:my|your) (?:new )?(?:number|address|"
        r"email)\b[^.!?\n]{0,10}\bsomehow\b|\bsomehow (?:got|found|knows|has) (?:hold of )?(?:my|"
        r"your) (?:new )?(?:number|address|email)\b",
    ),
    Rule(
        "child_safety",
        r"\byou(?:'ll| will) never see (?!me\b|us\b|it\b|this\b|that\b|my money\b)\w+ again\b"
        rf"|\bkeeping (?:{_FAMILY}|them|him|her|\w+) (?:until|till|unless) you\b"
        rf"|\b(?:{_FAMILY}|the kids|the baby)\b[^.!?\n]{{0,30}}\b(?:car|drive|driving)\b"
        r"[^.!?\n]{0,30}\b(?:drunk|been drinking|over the limit|high|stoned)\b",
    ),
    Rule(
        "weapon",
        r"\b(?:sharpened|sharpening|cleaned|cleaning|oiled|loaded|bought|got) (?:the|my|a|his) "
        rf"(?:big |new |old |sharp )?(?:\w+ )?{_WEAPON}\b[^\n]{{0,40}}\b(?:thought of you|thinking "
        r"of you|for you|just for you|with your name|just saying|you know why)\b",
    ),
    Rule(
        "violence",
        rf"\b{_ABUSER}\b(?:\s+\w+){{0,2}}?\s+(?:pushed|shoved) (?:me|us|her|him)\b(?! (?:to|"
        r"towards|into (?:applying|doing|taking|going|seeing|getting)|on the swings?|around in)\b)"
        r"|\b(?:(?:put|puts|putting) (?:his|her|their) hands|(?:laid|lays|laying|lay) (?:a )?"
        rf"(?:hand|finger)) on (?:me|her|him|us|the kids|{_FAMILY})\b"
        r"|\b(?:left|leaving|leaves) (?:marks|bruises|a mark|a bruise|fingerprints|scratches) "
        r"(?:on|all over|round|around) (?:my|her|his) (?:neck|throat|face|arms?|wrists?|back|legs?"
        r"|body|chest)\b",
        negatable=True,
        needs_person_subject=True,
    ),
    Rule(
        "self_harm",
        r"\bgiv(?:e|ing|en) up (?:for good|forever)\s*(?:\.|$)|\bgiv(?:e|ing|en) up on (?:life|"
        r"living|everything|myself)\b"
        r"|\b(?:everyone|everything|everybody|they|you|the world|my family|the kids)(?:'d| would|"
        r" will|'ll) be (?:\w+ )?(?:better|happier|easier|quieter|simpler|calmer|fine|lighter) "
        r"(?:off )?without me\b(?! for\b| tonight| this| at| on| while| in the)"
        r"|\b(?:keep|kept|can'?t stop) (?:thinking about|looking at|staring at|going back to) "
        r"(?:the|my|those) (?:pills|tablets|rope|razors?|blades?)\b(?![^.!?\n]{0,40}\b(?:doctor|gp|"
        r"pharmacist|prescri\w+|work|side effects?)\b)"
        r"|\b(?:pills|tablets|rope|razors?|blades?)\b[^.!?\n]{0,40}\b(?:keep|kept|can'?t stop) "
        r"(?:thinking about|looking at|staring at) (?:them|it)\b",
        person="infer",
    ),
    # ------------------------------------------------------------------ blind_c round
    # Wordings from the blind_c set (written by someone who never saw these rules),
    # generalised: surveillance told in passing, children kept or taken, threats that
    # name a door or a place rather than a body, and suicidal thoughts said sideways.
    Rule(
        "stalking",
        # someone asking others about the user's shifts, address or car
        r"\b(?:asking|asked|asks|wanted to know|wants to know|trying to find out)\b"
        r"(?:\s+\w+){0,4}?\s+(?:(?:what|which) shifts? (?:you|u)(?:'re| are)|where (?:you|u|i|she)"
        r"(?:'re|'m| are| am| is|'s)? (?:living|staying|live|lives|park|parks|parking)(?: now)?|"
        r"(?:whether|if) (?:you|u|she) still park|(?:when|what time) (?:you|u|she) (?:finish|start|"
        r"leave|get off|clock off))\b",
        source="incoming",
    ),
    Rule(
        "stalking",
        # "Nice red coat today": the sender has seen the user without being seen
        r"\b(?:nice|lovely|love (?:the|your|ur)|like (?:the|your|ur)|liked (?:the|your|ur)|cute|"
        r"suits you|new)\b[^.!?\n]{0,25}?\b(?:coat|dress|jacket|top|haircut|hair|outfit|shoes|"
        r"boots|jumper|hoodie|scarf|bag|car)\b[^.!?\n]{0,25}?\b(?:today|tonight|this morning|"
        r"this afternoon|earlier|yesterday)\b(?![^.!?\n]{0,10}\bat (?:the|your|ur|our|his|her)\b)"
        # location sharing, trackers, keys, "eyes everywhere"
        r"|\blocation(?:'s| is)? (?:still )?(?:shared|sharing|on)\b"
        r"|\bcheck (?:under|behind|inside) (?:your|ur) (?:\w+ )?(?:bumper|car|wheel arch|seat|"
        r"bag)\b"
        r"|\b(?:i'?ve|i have|i'?ve still|i still|still) got (?:a |your |ur |the )?(?:spare )?"
        r"keys?\b(?=[^\n]{0,80}\b(?:let myself in|been in|popped in|came in|go in|get in)\b)"
        r"|\blet myself in\b"
        r"|\b(?:i'?ve|i have|i got) (?:got )?eyes everywhere\b"
        r"|\bi (?:know|knew) (?:what car|which car|the car|where) (?:you|u|he|she|they) "
        r"(?:drive|drives|park|parks|leave|leaves|keep|keeps)\b"
        r"|\bwhere (?:you|u|i|she) (?:were|was) (?:going )?every (?:monday|tuesday|wednesday|"
        r"thursday|friday|saturday|sunday|week|day|night|morning)\b"
        r"|\bmessaged (?:every|all|each) (?:single )?(?:one of )?my (?:friends|family|"
        r"colleagues)\b[^.!?\n]{0,30}?\basking where\b",
        source=None,
    ),
    Rule(
        "child_safety",
        # a parent who will keep or take the children as a threat
        rf"\b(?:i'?m|im|i am|i'?ll|ill|i will|he'?ll|she'?ll|he will|she will|gonna|going to)\s+"
        rf"(?:\w+\s+){{0,3}}?(?:keep|keeping|take|taking|snatch|snatching|grab|grabbing)\s+"
        rf"(?:them|her|him|the kids|the children|{_FAMILY})\b(?:\s+\w+){{0,3}}?"
        r"(?=[^\n]{0,40}\b(?:himself|herself|myself|try and stop|try to stop|whether (?:you|u) "
        r"like it|see how you like|never see|won'?t see|for good|away from you|and you'?ll "
        r"never)\b)"
        # never see a parent again, as a threat
        r"|\bshame if (?:she|he|they|the kids|your \w+)\b[^.!?\n]{0,30}?\bnever "
        r"(?:got to |get to )?see\b"
        # not brought back, left alone, hurt
        r"|\b(?:hasn'?t|has not|haven'?t|didn'?t|did not|won'?t|refus\w+ to)\s+(?:\w+\s+)?"
        rf"(?:brought|bring|give|given|send|sent|return\w*)\s+(?:them|the kids|the children|"
        rf"{_FAMILY}|her|him)\s+back\b"
        rf"|\bleaves? (?:{_FAMILY}|them|her|him) (?:\w+ )?(?:on (?:her|his|their) own|alone|"
        r"home alone|by (?:her|him|them)sel(?:f|ves)|unattended)\b"
        rf"|\b{_FAMILY}\b[^.!?\n]{{0,50}}?\b(?:came back|come back|comes back|returned|got "
        r"home)\b[^.!?\n]{0,40}?\b(?:bruises?|bruised|burns?|marks|black eye|cuts?|injur\w+)\b"
        r"|\b(?:holding|carrying|feeding|had) (?:the|our|my) (?:baby|son|daughter|little one)\b"
        r"(?=[^\n]{0,60}\b(?:hit (?:her|his) head|fell|dropped|hurt|screamed)\b)",
    ),
    Rule(
        "child_safety",
        # a relative or the other parent coming to take the children
        r"\b(?:come|coming|go|going|turn up|turning up|be) (?:round|over|there|at)\b[^.!?\n]{0,40}?"
        r"\b(?:take|taking|get|getting|grab|grabbing|collect) (?:them|the kids|the children) "
        r"(?:himself|herself|myself|by force)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:be|i'?ll be|ill be|turning up|turn up) at (?:[a-z]+s? )?school (?:pick ?up|gates?|"
        r"run)\b[^\n]{0,40}\bwhether (?:you|u) like it\b"
        rf"|\b(?:your|ur) (?:{_KIDS})\b[^.!?\n]{{0,40}}?\blooked (?:so )?(?:happy|lovely|"
        r"well|cute|sweet|grown up|big)\b[^.!?\n]{0,40}?\b(?:today|this morning|earlier|"
        r"yesterday)\b",
        source="incoming",
    ),
    Rule(
        "violence",
        # doors kicked in, a weapon brought round, put in the ground, dragged home
        r"\b(?:kick|kicked|kicking|boot|booted|punch|punched|smash|smashed|break|broke|bash|"
        r"bashed)\s+(?:it|(?:the|your|ur|my|her|his|our) (?:front |back )?(?:door|window))\s+in\b"
        rf"|{_WEAPON_BROUGHT}"
        r"|\bput (?:you|u|him|her|them) in (?:the ground|a grave|the grave|hospital|a box|a "
        r"wheelchair)\b|\bsix (?:feet|foot) under\b"
        r"|\b(?:i'?ll|i will|ill|gonna|going to|he'?ll|he will|she'?ll)\s+(?:\w+\s+)?drag "
        r"(?:you|u|her|him)\b"
        r"|\btake everything from you\b[^\n]{0,80}\bhope (?:she|he|they|you) sleeps? (?:well|"
        r"tight|soundly)\b"
        r"|\btell (?:him|her|them|your (?:new )?\w+) to watch (?:his|her|their|your) back\b",
        negatable=True,
    ),
    Rule(
        "violence",
        # an apology that admits the violence ("I didn't mean to hurt you, you know how I get")
        r"\bdidn'?t mean to (?:hurt|hit|push|grab|shove) (?:you|u)\b(?=[^\n]{0,80}\b(?:how i "
        r"get|won'?t happen again|push me|wind me up|made me)\b)",
    ),
    Rule("weapon", _WEAPON_BROUGHT),
    Rule(
        "stalking",
        r"\b(?:turned|turns|turning|turn) up (?:\w+ ){0,2}?(?:at|outside|on) (?:my|our|your|ur|"
        r"the) (?:mum's|mom's|parents'?|house|flat|work|door|doorstep|school|sister's|brother's|"
        r"friend's|place|office|gym|new place)\b"
        r"|\b(?:punched|kicked|smashed|booted) (?:the|my|our|her|his) (?:front |back )?door in\b",
    ),
    Rule(
        "self_harm",
        # the car, the wheel, the train timetable; "not safe from me"
        r"\b(?:drive|driving|crash|crashing|steer|steering|put|putting)\s+(?:this|the|my)\s+car\s+"
        r"(?:into|off)\s+(?:a|the)\s+(?:wall|tree|river|lorry|bridge|truck|cliff|barrier)\b"
        r"|\blet(?:ting)? go of the (?:steering )?wheel\b"
        r"|\bnot bother(?:ing)? to (?:correct|brake|swerve|steer)\b"
        r"|\b(?:i'?m|i am|im) not safe\b[^\n]{0,40}?\bfrom (?:me|myself)\b"
        r"|\b(?:train|trains|tracks|bridge|platform|timetable)\b[^\n]{0,80}?\b(?:not because i "
        r"want to go anywhere|if you (?:get|know) what i mean)\b"
        r"|\b(?:easier|better) for everyone if i (?:just |simply )?(?:wasn'?t|weren'?t|was not|"
        r"were not) (?:here|around|alive)\b"
        r"|\bhow i'?d (?:actually |really )?do it\b",
        person="infer",
    ),
    # ------------------------------------------------------------------ blind_d round
    # Wordings from the blind_d set, generalised: someone in the stairwell or at the end of
    # the road, photos of a school gate, children taken out of class or kept without their
    # medicine, weapons kept "for you", and endings said in passing.
    Rule(
        "stalking",
        r"\bi'?m (?:at|outside|parked (?:at|outside|on|up)|sat (?:at|outside|in)|waiting (?:at|"
        r"outside)) (?:the (?:bottom|top|end|corner) of )?(?:your|ur) (?:road|street|house|flat|"
        r"building|work|office|door|drive|driveway|school|block)\b"
        r"|\b(?:keep|keeping|kept) an eye on (?:you|u|her|him)\b(?=[^\n]{0,80}\b(?:going|says|"
        r"told me|every|at the|tues|mon|wed|thurs|fri|sat|sun)\w*)"
        r"|\b(?:asked|got|paid|told) (?:my|his|her|a) \w+ to (?:keep an eye on|watch|follow|"
        r"check on) (?:you|u)\b"
        r"|\bwhich (?:street|road|flat|house)\b[^.!?\n]{0,30}\bwhich (?:flat|house|floor|door)\b"
        r"|\bwhat colou?r (?:the|your|ur) (?:front )?door is\b"
        r"|\benjoy (?:your|ur) little\b"
        r"|\btr(?:ying|ied|ies|y) (?:your|ur|my|the) (?:front |back )?(?:door|door handle|handle|"
        r"windows?|gate)\b"
        r"|\b(?:had|got|get|getting) (?:a )?(?:spare )?keys? cut\b"
        r"|\bstanding over (?:the|my|your|ur) bed\b"
        rf"|{_SEE_ME_COMING}|{_PHOTO_OF_THE_SCHOOL}|{_KNOWS_THE_SCHOOL}"
        rf"|{_PHOTO_OF}(?:house|flat|front door|car|work|office|street|gate|door)\b"
        r"|\bi know (?:which|what|where) (?:gym|bus stop)\b",
    ),
    Rule(
        "stalking",
        r"\b(?:coming|come|turn up|turning up|going|go) (?:to|round to|over to|down to) (?:your|ur)"
        r" (?:work|office|job|school|house|flat|place|mum's|mom's|parents'?)\b"
        r"(?=[^\n]{0,40}\b(?:drag|make a scene|whether you like|find you|sort you|get you|"
        r"if you don'?t|unless)\b)",
        source="incoming",
    ),
    Rule(
        "child_safety",
        rf"\b(?:{_FAMILY}|my boy|my girl|our boy|our girl|(?:my|our|the) little one)\b"
        r"[^.!?\n]{0,60}?\b(?:finger ?marks|marks|bruises?|bruised|burns?|scratches|cuts|black "
        r"eye|injur\w+)\b"
        r"|\bsecret from (?:mummy|mum|mommy|mom|daddy|dad|your mum|your dad)\b"
        r"|\b(?:has|have|kept|keeps|took|taken|got|hiding|hid|won'?t give (?:me )?back) (?:her|his|"
        r"their|the kids'?|the children'?s|my (?:son|daughter)'s|our (?:son|daughter)'s) "
        r"passports?\b"
        r"|\b(?:drunk|pissed|drink)[- ]driv\w*\b(?=[^\n]{0,60}\b(?:kids|children|them in the back"
        r"|in the back|boys|girls|baby|son|daughter)\b)"
        r"|\bdriv\w* (?:pissed|drunk|wasted|high|steaming|hammered|off (?:his|her) (?:face|head))"
        r"\b(?=[^\n]{0,60}\b(?:kids|children|them|in the back|boys|girls|baby|son|daughter)\b)"
        r"|\b(?:took|taken|picked up|collected|snatched|grabbed) (?:the baby|the kids|the "
        r"children|our \w+|my \w+|them|her|him) (?:from|out of) (?:nursery|school|daycare|"
        r"childcare|class|the childminder'?s?)\b[^\n]{0,40}\b(?:without|isn'?t answering|not "
        r"answering|won'?t answer|didn'?t tell|no one knew)\b"
        r"|\btr(?:y|ied|ying|ies) to take \w+ (?:out of|from) (?:class|school|nursery|the "
        r"playground)\b"
        r"|\b(?:back|bring (?:them|him|her) back|return (?:them|him|her)) when i (?:feel like it"
        r"|want|'m ready|am ready|decide)\b"
        r"|\bdoesn'?t need (?:his|her|their) (?:inhaler|medicine|meds|medication|epipen|insulin|"
        r"tablets)\b"
        r"|\b(?:come|coming) (?:round |over )?(?:and )?(?:get|take|grab|collect) (?:them|the "
        r"kids|the children) (?:myself|himself|herself|by force)\b"
        rf"|{_KNOWS_THE_SCHOOL}|{_PHOTO_OF_THE_SCHOOL}"
        # a threat that takes the child in: "neither of you", "especially with kids in the back"
        rf"|\b{_FAMILY}\b[^\n]{{0,60}}\b(?:neither|both|none|all) of (?:you|u) (?:gets?|makes?|"
        r"will|won'?t|ever)\b"
        r"|\b(?:especially|even) (?:with )?(?:the )?(?:kids|children|baby) in the (?:back|car)\b",
    ),
    Rule(
        "violence",
        r"\b(?:you|u) know what i'?m capable of\b"
        r"|\bsee what happens to (?:the|your|ur|my|our) (?:dog|cat|pets?|kids?|children|car|house"
        r"|mum|mom|family|horse)\b"
        r"|\bscared of me\b[^\n]{0,25}?\byou should be\b"
        rf"|{_SEE_ME_COMING}"
        r"|\bdrag (?:you|u|her|him|me) (?:\w+ ){0,3}?by (?:the|your|ur|her|his|my) (?:hair|neck|"
        r"throat|arm|collar)\b"
        rf"|{_BULLET}"
        r"|\bneither of (?:you|u) (?:gets?|makes?|will get|will make|ever gets?) (?:it|there|home)"
        r"\b"
        r"|\byou won'?t like (?:how|what happens|what i do)\b",
    ),
    Rule(
        "weapon",
        rf"\b{_WEAPON}(?:'s| is) still (?:in|under|on|there|where)\b"
        rf"|{_BULLET}"
        rf"|\b(?:sent|sends|posted|posts) (?:me )?(?:a )?(?:photo|pic|picture|snap|video|story) "
        rf"of (?:his|her|a|the|their) (?:\w+ )?{_WEAPON}\b",
    ),
    Rule(
        "self_harm",
        r"\b(?:simpler|easier|better) to (?:just )?(?:not exist|not be here|not wake up|disappear|"
        r"be dead|die)\b"
        r"|\b(?:just )?not exist(?:ing)? any ?more\b"
        r"|\bswallow(?:ed|ing)? everything\b|\beverything in the (?:bathroom |medicine )?cabinet\b"
        r"|\b(?:drove|went|walked|sat|stood) (?:to|on|at|by) the (?:bridge|cliffs?|edge|tracks|"
        r"railway|river|roof|platform)\b[^\n]{0,80}\b(?:didn'?t do it|couldn'?t do it|next time|"
        r"almost|nearly)\b"
        r"|\b(?:staring|stare|sat staring) at (?:the|my|all the|all my) (?:pills|tablets|meds|"
        r"razors?|blades?|rope)\b"
        r"|\b(?:looking|look|sat looking) at (?:the|my|all the|all my) (?:pills|tablets|meds|"
        r"razors?|blades?|rope)\b(?=[^\n]{0,40}\b(?:all night|for hours|thinking about|"
        r"thinking it|and think|how many)\b)"
        r"|\b(?:think|thinking|thought) about (?:just )?(?:stepping|jumping|stepping forward|"
        r"stepping off|falling|driving off)\b"
        r"|\b(?:said|saying) (?:my )?goodbyes? to (?:the|my|everyone|everybody)\b"
        r"(?=[^\n]{0,80}\b(?:i'?m done|thank you for|i'?m sorry|last|forgive me)\b)"
        r"|\b(?:hit|punched|slapped|cut|burned|burnt|scratched|bit) myself\b"
        r"(?=[^\n]{0,80}\b(?:over and over|on purpose|deliberately|again and again|until|hate "
        r"myself|punish|to feel)\b)"
        r"|\b(?:the |my )?(?:pills|tablets) are (?:in front of me|ready|lined up|counted out)\b"
        r"|\b(?:razor|blade|knife)(?:'s| is) out\b"
        r"|\b(?:took|taken|injected) (?:all (?:of )?)?my (?:insulin|meds|medication|pills|"
        r"tablets)\b"
        r"|\bby the time you read this\b|\blast message ever\b",
        person="infer",
    ),
    Rule(
        "self_harm",
        # the writer's own wish, though someone else is named in it
        r"\b(?:easier|better) if (?:he'?d|he had|she'?d|she had|they'?d) (?:just )?finished "
        r"(?:it|me off|the job)\b",
        person="first",
    ),
    Rule(
        "violence",
        # "ur ded when i find u"; bruises dated to a day
        r"\b(?:you'?re|your|you are) (?:so |fucking |literally )?dead (?:when|if|once|the minute"
        r"|the second|the moment)\b"
        r"|\b(?:bruises?|marks) (?:all )?(?:on|round|around) my (?:arms?|neck|throat|face|legs?|"
        r"wrists?|back|ribs)\b[^.!?\n]{0,20}?\bfrom (?:saturday|sunday|monday|tuesday|wednesday|"
        r"thursday|friday|last night|the weekend|the other night|yesterday|him|her)\b",
    ),
    Rule(
        "violence",
        # a child with marks on them
        rf"\b(?:{_FAMILY}|my boy|my girl|our boy|our girl|(?:my|our|the) little one)\b"
        r"[^.!?\n]{0,60}?\b(?:finger ?marks|bruises?|bruised|burns?|black eye)\b",
    ),
    *(
        Rule(
            kind,
            # a weapon left where the user will find it
            rf"\b{_WEAPON} (?:stuck|left|jammed|driven|stabbed) (?:in|into|through) (?:my|your|"
            r"ur|the) (?:tyres?|tires?|door|car|seat|bed|pillow|windscreen)\b",
        )
        for kind in ("weapon", "violence")
    ),
)

#: Idioms and harmless uses: a hit that overlaps one of these is dropped.
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
_HARMLESS_WEAPON = re.compile(
    r"\b(?:cake|bread|watermelon|melon|pizza|veg|vegetables|onions?|chopping|chop|carve|carving|"
    r"turkey|roast|cook|cooking|recipe|lasagne|cheese|butter|steak|fruit|sandwich|cutlery|"
    r"sharpener|blunt|diy|shelf|shelves|nails|picture|fence panel|archery|range|clay pigeon|"
    r"paintball|nerf|water|glue|staple|toy|film|movie|game|netflix|episode|book|novel|xbox|"
    r"playstation|fortnite|skills|chef|butcher|pumpkin|bbq|barbecue|museum|display|antique|"
    r"collection|ornament|mounted|cricket|rounders|softball|practice|training|nets)\b"
)
#: "I cut myself chopping onions": an everyday accident, not self-harm.
_ACCIDENT = re.compile(
    r"\b(?:cooking|chopping|slicing|shaving|by accident|accidentally|on the (?:oven|stove|hob|"
    r"iron|kettle|pan|grill|bbq|barbecue|tin|glass)|with the (?:iron|kettle|knife|scissors)|"
    r"at the gym|playing|gardening|baking|making (?:dinner|lunch|tea|breakfast))\b"
)
#: Violence in a story someone watched or read.
_FICTION = re.compile(
    r"\b(?:film|movie|documentary|episode|series|netflix|novel|book|podcast|true crime|"
    r"tv show|video game|the game|thriller|murder mystery|plot)\b"
)
_RULES = tuple((rule, compile_split(rule.pattern)) for rule in RULES)
_IDIOMS = compile_any(IDIOMS)
_PERSON_SUBJECT = re.compile(
    r"\b(?:i|i'm|i'?ll|i'd|i've|he|she|they|we|he's|she's|he'?ll|she'?ll|they'?ll|they're|"
    r"ex|husband|wife|boyfriend|girlfriend|partner|dad|father|mum|mom|mother|stepdad|stepmum|"
    r"brother|sister|uncle|aunt|cousin|someone|somebody|son|daughter)\b"
)
_FIRST = re.compile(r"\b(?:i|i'm|i'?ll|i'd|i've|me|my|myself)\b")
_THIRD = re.compile(
    r"\b(?:he|she|they|he's|she's|he'?ll|she'?ll|they'?ll|they're|his|her|him|mum|mom|"
    r"mother|dad|father|brother|sister|ex|husband|wife|boyfriend|girlfriend|partner|son|"
    r"daughter|friend)\b"
)
_REPORTED = re.compile(
    rf"\b{_ABUSER}\b\s+(?:\w+\s+)?(?:said|says|say|texted|wrote|writes|told|tells|threatened|"
    r"threatens|keeps saying|kept saying|messaged|screamed|shouted|posted)\b"
)
_MEANT_FOR = re.compile(
    r"\b(?:it'?s|its|is|that'?s) (?:for|meant for) (?:me|you)\b"
    r"|\b(?:keeping|saving|kept|saved|been keeping) (?:it|them) for (?:you|u|me)\b"
)
#: A weapon used to frighten: "when we argue he picks it up", "not saying I'd use it".
_MENACE = re.compile(
    r"\b(?:(?:when|whenever|every time|if) (?:we|i|he|she|they) (?:argue|argued|row|rowed|"
    r"fight|fought|disagree|shout)|shows? (?:it|them) to me|taps? (?:it|them)|"
    r"(?:screamed|shouted|yelled|screaming|shouting) at me|talk(?:s|ed|ing)? about using (?:it"
    r"|them)|"
    r"picks? (?:it|them) up|picked (?:it|them) up|holds? (?:it|them)|looks? at me|"
    r"(?:i'?d|he'?d|she'?d|i would|he would|she would|i'?ll|he'?ll|she'?ll) use (?:it|them)|"
    r"(?:not (?:saying|afraid|scared)|don'?t make me) (?:i'?d|to|that i'?d) use|"
    r"thought you'?d (?:want|like) to know|just so you know|remember that|"
    r"(?:keeps?|kept|keep) (?:saying|muttering|mentioning|asking about) (?:your|ur) name|"
    r"i'?m (?:so )?(?:frightened|scared|terrified)|caption(?:s|ed)?|"
    r"i know exactly what (?:he|she|they) means?|think about that (?:before|when)|"
    r"(?:that'?s|this is) how (?:i'?ll|he'?ll|she'?ll|we'?ll) (?:deal with|sort|handle))\b"
)
#: An incoming message that relays what the user is said to have claimed ("you told
#: your friends that Dad used to hit you"): a smear to answer, not a danger.
_YOUR_CLAIM = re.compile(
    r"\byou(?:'d|'ve| had| have)? (?:been )?(?:told|telling|said|saying|claimed|claiming|"
    r"tell|say|claim)\b(?: \w+){0,3}? that\b[^.!?\n]*$"
)
#: "he's telling everyone you hit him": a smear about the user, not a danger to them.
_SAYS_YOU = re.compile(
    r"\b(?:telling|tells|told|saying|says|said|claims?|claiming)\s+(?:everyone|everybody|"
    r"people|the family|the whole family|them|all (?:his|her|their) mates|(?:his|her|their) "
    r"mates|the court|the police|anyone who'?ll listen)\s+(?:that\s+)?(?:you|u)\b"
)
_KIDS_WITNESS = re.compile(
    r"\bin front of (?:the|our|my|his|her) " + _KIDS + r"\b"
    r"|\b" + _KIDS + r"\b[^.!?\n]{0,30}\b(?:saw|watched|witnessed|heard) (?:the whole thing|"
    r"everything|it all|it happen)\b|\b(?:saw|watched|witnessed|heard) the whole thing\b"
)


def _person(text: str, hit: Hit, rule: Rule) -> Literal["first", "third"]:
    """Whose self-harm a hit is about, seen from the writer of the text."""
    begin = clause_start(text, hit.start)
    if rule.person == "third":
        return "third"
    if rule.person == "infer":
        window = text[begin : hit.end]
        firsts = [m.start() for m in _FIRST.finditer(window)]
        thirds = [m.start() for m in _THIRD.finditer(window)]
        if thirds and (not firsts or thirds[-1] > firsts[-1]):
            return "third"
    # "he said he'd kill himself" is caught above; "she texted 'I'll end it all'" here.
    sentence_begin = max(0, hit.start - 120)
    cut = max(
        text.rfind(".", sentence_begin, hit.start), text.rfind("\n", sentence_begin, hit.start)
    )
    if _REPORTED.search(text, max(sentence_begin, cut + 1), hit.start):
        return "third"
    return "first"


def _kind(rule: Rule, text: str, hit: Hit, source: Source) -> str:
    if rule.kind != "self_harm":
        return rule.kind
    if _person(text, hit, rule) == "third" or source == "incoming":
        return "self_harm_them"
    return "self_harm_user"


def _claimed(text: str, hit: Hit) -> bool:
    """The hit is in a sentence that says the user claimed it, or that others are told
    the user did it (see ``_YOUR_CLAIM`` and ``_SAYS_YOU``)."""
    lo = max(0, hit.start - 160)
    begin = max(text.rfind(mark, lo, hit.start) for mark in ".!?\n") + 1
    return bool(
        _YOUR_CLAIM.search(text, max(lo, begin), hit.start)
        or _SAYS_YOU.search(text, max(lo, begin), hit.start)
    )


def _kept(rule: Rule, text: str, hit: Hit, idiom_spans: list[Hit], source: Source) -> bool:
    if any(i.start < hit.end and hit.start < i.end for i in idiom_spans):
        return False
    if rule.negatable and negated(text, hit.start, hit.end):
        return False
    around = (max(0, hit.start - 60), min(len(text), hit.end + 60))
    if rule.kind == "weapon" and _HARMLESS_WEAPON.search(text, *around):
        return False
    if rule.kind == "violence" and _FICTION.search(text, *around):
        return False
    if rule.kind == "self_harm" and _ACCIDENT.search(text, hit.start, min(len(text), hit.end + 40)):
        return False
    if rule.kind == "violence" and source == "incoming" and _claimed(text, hit):
        return False
    if rule.needs_person_subject:
        begin = clause_start(text, hit.start)
        if not _PERSON_SUBJECT.search(text, begin, hit.end):
            return False
    return True


#: Which trained model backs up the rules: the shipped one, a given one, or none.
Classifier = Model | Literal["shipped"] | None


@dataclass(frozen=True)
class DangerCheck:
    found: tuple[Finding, ...]
    #: when nothing was found: the danger kinds the classifier leans towards, worth a
    #: gentle "are you safe?" (``Model.gentle``)
    possible: tuple[str, ...] = ()


def detect_in(
    norm: Normalized, source: Source = "user", model: Classifier = "shipped"
) -> tuple[Finding, ...]:
    """Danger findings for already-normalised text (shared with analyze()): the rules,
    then the trained classifier (classifier.py) for the kinds the rules did not find.
    ``model=None``: the rules only."""
    return _checked(norm, source, model).found


def check_danger(text: str, source: Source = "user", model: Classifier = "shipped") -> DangerCheck:
    """The safety net's check of any text: ``detect_danger``'s findings, and when there
    are none, the kinds still worth a gentle "are you safe?" (``DangerCheck.possible``)."""
    return _checked(normalize(text), source, model)


#: The last few texts checked with the shipped model.  A pasted message is checked by
#: the safety net and then again by the flow that analyses it; the second time is free.
#: (In memory only, like the rest of a conversation step; never written anywhere.)
_RECENT: OrderedDict[tuple[str, str], DangerCheck] = OrderedDict()
_RECENT_SIZE = 32


def _checked(norm: Normalized, source: Source, model: Classifier) -> DangerCheck:
    if model != "shipped":
        return _check(norm, source, model)
    key = (norm.original, source)
    found = _RECENT.get(key)
    if found is None:
        found = _RECENT[key] = _check(norm, source, model)
        if len(_RECENT) > _RECENT_SIZE:
            _RECENT.popitem(last=False)
    return found


def _check(norm: Normalized, source: Source, model: Classifier) -> DangerCheck:
    text = norm.text
    idiom_spans = find(_IDIOMS, text)
    cleared: list[Hit] = list(idiom_spans)  # what the rules looked at and let go
    found: dict[str, list[Hit]] = {}
    for rule, patterns in _RULES:
        if rule.source is not None and rule.source != source:
            continue
        for hit in find_all(patterns, text):
            if _kept(rule, text, hit, idiom_spans, source):
                found.setdefault(_kind(rule, text, hit, source), []).append(hit)
            else:
                cleared.append(hit)
    if source == "incoming" and "weapon" in found:
        found.setdefault("violence", []).extend(found["weapon"])
    if "weapon" in found and any(
        _MENACE.search(text, max(0, h.start - 80), h.end + 120) for h in found["weapon"]
    ):
        found.setdefault("violence", []).extend(found["weapon"])
    if "weapon" in found and ("stalking" in found or _MEANT_FOR.search(text)):
        found.setdefault("violence", []).extend(found["weapon"])
    if "violence" in found:
        witness = find(_KIDS_WITNESS, text)
        if witness:
            found.setdefault("child_safety", []).extend(witness)

    learnt: dict[str, Finding] = {}
    scores: list[Scored] = []
    if model is not None:
        chosen = load_model() if model == "shipped" else model
        scores = score(chosen, norm.text, source)  # once, for the finding and the gentle tier
        learnt = {f.id: f for f in classify(chosen, norm, source, cleared, bool(found), scores)}
        if any(kind in found for kind in SELF_HARM):  # the rules already know whose
            learnt = {k: f for k, f in learnt.items() if k not in SELF_HARM}
    findings: list[Finding] = []
    for kind in WHY:  # the fixed order of DANGER_KINDS
        if kind in found:
            hits = sorted(found[kind], key=lambda h: h.start)
            findings.append(Finding(kind, phrases(norm, hits), WHY[kind]))
        elif kind in learnt:
            findings.append(learnt[kind])
    if findings or model is None:
        return DangerCheck(tuple(findings))
    return DangerCheck((), worrying(chosen, norm, source, cleared, scores))


def detect_danger(
    text: str, source: Source = "user", model: Classifier = "shipped"
) -> tuple[Finding, ...]:
    """Danger in a free text.  ``source="user"``: the user's own words (first-person
    self-harm is ``self_harm_user``); ``"incoming"``: a message someone sent the user
    (first-person self-harm is the sender's, ``self_harm_them``).  Reported speech in
    the user's words ("he said he'd kill me", "she's going to kill herself") is caught
    either way.  ``model``: see ``detect_in``."""
    return detect_in(normalize(text), source, model)
