"""The tactics a message can use, each with a plain explanation and the phrases that show it.

Patterns run over the normalised text (lower case, "u" -> "you", "dont" -> "don't", ...;
see normalize.py), so write them in lower case with straight apostrophes.  ``self_harm``
and most of ``threat`` come from danger.py; ``logistics`` from greyrock.py.  The ``why``
sentences name the pattern, never judge the person.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tactic:
    why: str
    patterns: tuple[str, ...]


_YOU = r"(?:you|your)"
_INSULT = (
    r"(?:selfish|crazy|pathetic|useless|a liar|liar|mental|a psycho|psycho|unstable|evil|"
    r"a traitor|traitor|a sneak|sneaky|a bitch|a joke|a failure|a disgrace|a narcissist|"
    r"an abuser|unfit|an idiot|stupid|a nutter|ungrateful|heartless|cold|toxic|disgusting|"
    r"a monster|worthless|a loser|cruel)"
)

TACTICS: dict[str, Tactic] = {
    "apology": Tactic(
        "This looks like an apology. You do not have to decide whether it is sincere.",
        (
            r"\bsorry\b(?<!be sorry)(?<!feel sorry)(?! to hear| for you| for yourself)",
            r"\bapologi[sz](?:e|ing)\b|\bmy apologies\b",
            r"\bforgive me\b",
            r"\b(?:my|all my) fault\b",
            r"\bi was (?:wrong|an idiot|a fool|stupid|out of order|horrible|awful)\b",
            r"\bi (?:messed|screwed|fucked) (?:up|it up|everything up)\b",
            r"\bi regret\b",
            r"\bi know i hurt you\b",
            r"\bi don't deserve (?:you|it|your)\b",
            r"\bi own that\b|\bi take (?:full )?responsibility\b|\bnever forgive myself\b",
            r"\bi was (?:a )?(?:complete |total )?(?:mess|nightmare)\b|\bhate how we left things\b",
            r"\b(?:he|she|they)(?:\'s| is| are) sorry\b",
        ),
    ),
    "promise": Tactic(
        "This looks like a promise to change.",
        (
            r"\bi'?ve changed\b|\bi (?:can|will|'ll|am going to|'m going to) change\b"
            r"|\bi'?ll change\b",
            r"\bi'?m (?:a )?(?:changed|different) (?:man|person|woman)\b",
            r"\bnot the same (?:person|man|woman) (?:anymore|any more)?",
            r"\b(?:things|it|this|everything) (?:will|'ll|is going to|are going to) be different\b",
            r"\b(?:will |it'?ll |'ll )?never happen again\b|\bwon'?t happen again\b",
            r"\bi promise\b|\bi swear (?:it|i'?ll change|on)\b",
            r"\bi'?ll (?:do|be) better\b|\bi'?ll be the (?:man|woman|person|partner|husband"
            r"|wife)\b",
            r"\b(?:seeing|see|started|starting|getting|get|got|in) (?:a )?(?:therapist|therapy|"
            r"counsell?ing|counsell?or|help|rehab)\b",
            r"\b(?:stopped|stop|quit|quitting|given up|give up) (?:drinking|the drink|gambling|"
            r"drugs|smoking weed)\b|\bsober\b|\bmeetings every\b|\banger management\b",
            r"\bi'?ll work on (?:it|myself|me)\b|\bwhatever it takes\b",
            r"\bmake it (?:right|up to you)\b|\bmeans it this time\b|\bthis time (?:will be|is) "
            r"different\b",
            r"\bsorted (?:my life|myself|my head|things) out\b|\bdoing (?:really |so )?well now\b",
            r"\bi\'?m a better (?:man|person|woman)\b|\b(?:let me |chance to )?prove (?:it"
            r"|myself)\b",
        ),
    ),
    "affection": Tactic(
        "This looks like affection or nostalgia, which can pull you back.",
        (
            r"\bi (?:still |really |so |just )?(?:love|adore) (?:you|ya)\b|\blove you\b",
            r"\bmiss(?:es|ing)? (?:you|ya|your)\b|\bi (?:really |still |so )?miss\b",
            r"\bwe miss you\b",
            r"\b(?:thinking|thought|think|dreamt|dreamed|dream|dreaming) (?:about|of) (?:you|us)\b",
            r"\bcan'?t stop thinking\b",
            r"\bremember (?:when|our|that time|the time|how we)\b|\blike old times\b",
            r"\bbest (?:week|day|thing|time|years?|night) of my life\b"
            r"|\bbest thing that (?:ever )?happened\b",
            r"\bsoul ?mate\b|\blove of my life\b|\bwe were (?:so )?(?:good|great|happy) together\b",
            r"\bnobody (?:will )?(?:ever )?love (?:you|ya) like\b",
            r"\b(?:beautiful|gorgeous|babe|sweetheart|darling|my love|my angel)\b",
            r"\bi (?:still )?care (?:about you)?\b",
            r"\b(?:door|heart) (?:is )?always (?:be )?open\b|\b(?:she|he|they) loves? you\b",
            r"\bsuits (?:you|ya)\b|\byou look(?:ed)? (?:so )?(?:good|great|beautiful|amazing"
            r"|gorgeous)\b",
            r"[❤💕💖💗😘🥰💔]",
            r"\b(?:whole|entire) world\b|\bmade me think of (?:you|ya)\b|🥺",
        ),
    ),
    "guilt": Tactic(
        "This looks like guilt: it puts the weight of their feelings on you.",
        (
            r"\bafter (?:everything|all) (?:i'?ve|i|we'?ve|we|he'?s|she'?s|he|she|they) "
            r"(?:done|did|have done|has done|gave|given|sacrificed)\b",
            r"\bafter all (?:the years|these years|i'?ve)\b|\bhow (?:you )?repay\b",
            r"\bhow could you\b",
            r"\bhope (?:you'?re|you are) (?:proud|happy)\b|\bhappy now\b|\bhope it was worth it\b",
            r"\b(?:do|don't) you (?:even )?care\b|\byou don'?t (?:even )?care\b",
            r"\b(?:heartbroken|broken[- ]hearted|devastated|in tears|in pieces)\b"
            r"|\b(?:cried|crying)\b(?! laughing)",
            r"\b(?:throw|threw|throwing) away (?:\w+ ){0,2}(?:years|everything|us|this family)\b",
            r"\byou owe (?:me|him|her|us|it)\b",
            r"\bpaid for your\b",
            r"\babandon(?:ed|ing)? (?:us|your|me|the|this)\b",
            r"\bnot getting any younger\b|\b(?:only get|only have) one\b",
            r"\b(?:your|his|her|my) poor (?:mother|mum|mom|dad|father|nan|gran)\b",
            r"\b(?:kids|children) (?:keep |are |have been )?(?:ask|asking|cry|crying|miss"
            r"|missing)\b",
            r"\bwhy (?:daddy|mummy|mommy|dad|mum|mom) is sad\b",
            r"\bkeeps? asking for you\b",
            r"\b(?:you'?ll|you will) have to live with\b|\blive with yourself\b",
            r"\bhow this looks\b|\bfamily is family\b|\bstill your (?:mother|mum|mom|dad|father)\b",
            r"\bnothing but good to you\b|\bbecause of what you did\b",
            r"\byou'?ll be sorry\b|\bbroke my heart\b|\bbreaking my heart\b",
            r"\bdon'?t (?:you )?ever forget\b",
            r"\bbad heart\b|\bisn\'?t good for (?:her|him)\b|\bworried sick\b|\bin hospital\b",
            r"\b(?:she|he)\'?s (?:still )?family\b|\bnot long left\b|\bgrow up knowing\b",
            r"\bstill waiting (?:by|at) the door\b|\bwaiting by the door\b"
            r"|\bnot the same without\b",
        ),
    ),
    "victim": Tactic(
        "This looks like playing the victim: their hurt is made the centre of the story.",
        (
            r"\bi'?m the (?:victim|one (?:who'?s|who is|suffering|who got hurt|hurting|who))\b",
            r"\bthe one (?:who got hurt|suffering|who'?s suffering)\b|\bthe bad guy\b",
            r"\b(?:so )?lonely\b",
            r"\b(?:barely|can'?t|not|haven'?t been) (?:eating|sleeping|eat|sleep)\b",
            r"\bnobody (?:checks on|cares about|loves) me\b",
            r"\b(?:he'?s|she'?s|they'?re) (?:really )?(?:struggling|a mess|not coping|in pieces|"
            r"falling apart|a wreck)\b|\blost (?:so much )?weight\b",
            r"\b(?:you|u) (?:destroyed|broke|ruined) me\b|\bi'?m nothing without you\b",
            r"\b(?:everyone|everybody)(?:'s| is) against me\b|\bafter what you did to me\b",
            r"\btreat(?:ed|ing)? me like\b|\bi forgive you\b|\byou (?:just )?used me\b",
            r"\byou never loved me\b|\bnobody (?:will|would) (?:even )?miss me\b",
            r"\bbetter off (?:if i|without me)\b|\bbroke my heart\b",
            r"\bwho i am without you\b|\bcan\'?t deal with (?:it|this) (?:on my own|alone)\b",
            r"\bi (?:only|just) wanted to\b|\bpicking up the pieces\b|\bleft holding\b",
        ),
    ),
    "urgency": Tactic(
        "This adds urgency, so you feel you must answer now. You can take your time.",
        (
            r"\burgent(?:ly)?\b|\bemergency\b|\basap\b|\bimmediately\b",
            r"\b(?:call|ring|answer|text|reply|respond|message) (?:me )?(?:back )?(?:now|asap|"
            r"right now|tonight|today|straight away)\b",
            r"\blast chance\b|\btime[- ]sensitive\b|\bbefore it'?s too late\b",
            r"\b(?:in|within) the next (?:\d+|an|one|two|few) (?:hours?|minutes?|mins?)\b",
            r"\bby (?:tonight|midnight|the end of (?:the|today))\b",
            r"\bneed (?:an answer|to talk to you|to see you|you) (?:tonight|today|now|right now)\b",
            r"\banswer your phone\b",
            r"\b(?:ring|call|text) me (?:tonight|today|now|back now)\b|\bsomething\'?s happened\b",
        ),
    ),
    "threat": Tactic(
        "This looks like a threat. Threats are worth saving as evidence.",
        (
            r"\byou'?ll regret\b|\byou will regret\b|\bmark my words\b",
            r"\bi'?ll make (?:sure|your life)\b|\bliving hell\b|\bi'?ll ruin you\b",
            r"\btake you to court\b|\btake everything\b",
            r"\bpost (?:those|the|your|these) (?:pictures|photos|videos|pics)\b",
            r"\b(?:tell|telling|call|calling|ring|ringing) (?:your boss|your work|social services|"
            r"the police on you|your family|your parents)\b",
            r"\bsee what happens\b|\bor else\b|\byou'?ll see\b|\byou'?ll pay\b|\bmake you pay\b",
            r"\benjoy (?:your freedom|it) while it lasts\b|\bnobody leaves me\b",
            r"\bcan'?t (?:just )?walk away from me\b",
            r"\bchanged (?:her|his|their) will\b|\bwhole family will know\b",
            r"\bknow about your past\b|\bwon'?t get away with\b",
            r"\b(?:kill yourself|go die)\b",
            r"\bget used to it\b",
            r"\bwhat i\'?m (?:really )?capable of\b|\bwish (?:you\'?d|you had) never met me\b",
            r"\b(?:full|sole) custody\b|\blucky to see (?:them|the kids|her|him)\b",
            r"\bgrow up knowing what you did\b|\bkeep this up and\b",
        ),
    ),
    "blame": Tactic(
        "This looks like blame or a put-down: it puts the fault on you.",
        (
            r"\b(?:your|ur) (?:fault|doing)\b|\byou made me\b|\bbecause of you\b",
            r"\byou (?:ruined|wrecked|destroyed) (?:this|everything|the|our|my)\b",
            rf"\byou(?<!says you)(?<!said you)(?<!that you)(?<!think you)'?re (?:so |such |being |"
            rf"really |"
            rf"just |a |an |nothing but )*{_INSULT}\b",
            rf"\byou(?: are|'ve always been|'ve been| have always been| were always| always were) "
            rf"(?:so |such |a |an )*{_INSULT}\b",
            r"\btypical of you\b|\buseless\b|\bexcuse for a\b|\btraitor\b|\bsneak\b",
            r"\bif you hadn'?t\b|\byou (?:pushed|drove|forced) me\b",
            r"\bif you were a better\b|\bturning the kids against me\b",
            r"\byou (?:never|didn'?t) (?:even )?(?:loved|love|cared|care|ask)\b",
            r"\byou (?:just )?used me\b|\byou abandoned\b|\byou did this\b|\bit'?ll be on you\b",
            r"\bneither are you\b|\bplay(?:ing)? the victim\b|\bvictim act\b|\btelling lies\b",
            r"\bwhat you did to\b|\bdisgusting\b",
            r"\bof course you (?:forgot|did|would)\b|\bjoke of a\b|\bcow\b",
        ),
    ),
    "gift": Tactic(
        "This looks like a gift or a favour, which can create a feeling of owing them.",
        (
            r"\b(?:bought|got|sent|left|ordered|paid for)\s+(?:\w+\s+){0,3}?(?:you|flowers|tickets?"
            r"|"
            r"presents?|gifts?|chocolates|something)\b",
            r"\b(?:presents?|gifts?|flowers|bouquet|chocolates|parcel)\b",
            r"\bpaid off your\b|\bleft something\b",
        ),
    ),
    "info_seeking": Tactic(
        "This asks for information about your life. You do not have to share it.",
        (
            r"\bwhere (?:are|r) (?:you|u) (?:living|staying|working|now|these days|at)\b",
            r"\bwhere do you (?:live|work|go|stay)\b|\bwhere (?:are|r) you living\b",
            r"\bwho'?s the (?:guy|man|girl|woman|bloke|lad|fella)\b",
            r"\bwho (?:are you|r u) (?:seeing|with|dating)\b",
            r"\bare you (?:seeing|dating|with) (?:anyone|someone|somebody|him|her)\b",
            r"\bseeing anyone\b",
            r"\b(?:which|what) (?:gym|school|job|area|street|town|address|road|hospital)\b",
            r"\b(?:how'?s|how is) (?:your|ur) new\b",
            r"\bis it true (?:you|that)\b|\bstill at the\b|\bsame address\b|\bdid you move\b",
            r"\bwhat (?:are|r) (?:you|u) (?:up to|doing) these days\b",
            r"\bwhat should i tell (?:him|her|them)\b",
            r"\b(?:does|did) he know\b|\bis he going to be there\b",
            r"\bnew job\b[^.?!]{0,30}[.?!]\s*where\b",
            r"\bare you happy with (?:him|her)\b|\b(?:does|do) (?:he|she|they) treat you\b",
            r"\bwho are you with now\b|\bwhere (?:you\'?re|you are) (?:working|living|staying)\b",
        ),
    ),
    "relay": Tactic(
        "This passes on a message from someone else. You do not have to answer it.",
        (
            r"\b(?:wants|asked|told|wanted|begged) me to (?:tell|pass|give|remind|check|say"
            r"|let you)\b",
            r"\bpass (?:on|this on|it on|along|this along)\b",
            r"\b(?:he|she|they)(?:'s| has| have)? (?:been )?ask(?:ed|ing) about you\b",
            r"\basked about you\b",
            r"\b(?:he|she|they) (?:just )?wants? to know\b",
            r"\bnot taking sides\b|\bon (?:his|her|their) behalf\b",
            r"\b(?:he|she) says (?:he'?ll|she'?ll|you|if|ring)\b",
            r"\b(?:mum|mom|dad|your (?:mother|father|mum|mom|dad|aunt|uncle|nan|gran|brother|"
            r"sister)) (?:says|said|wants you|asked me)\b",
            r"\bdon'?t shoot the messenger\b",
            r"\b(?:asked|asking|asks) me (?:where|if|whether|to let you know|about you)\b",
            r"\bkeeps? asking me\b|\b(?:she|he) misses you\b",
            r"\byour (?:mum|mom|dad|mother|father|sister|brother|nan|gran)(?:\'s| is)? (?:worried"
            r"|wants|would like|asked)\b",
            r"\b(?:your )?(?:mum|mom|dad|mother|father|sister|brother|nan|gran|aunt|uncle) (?:asked"
            r"|wants|says|said) "
            r"(?:me|you|to|that|ur|you\'re)\b",
        ),
    ),
    "smear": Tactic(
        "This looks like a smear: stories about you told to others. Correcting them is not your"
        " job.",
        (
            r"\b(?:everyone|everybody) (?:knows|can see|is talking|says|thinks|will know"
            r"|will see)\b",
            r"\bpeople (?:are|have been) (?:talking|saying)\b",
            r"\b(?:told|telling|tell) (?:everyone|people|your friends|your family|everybody)\b",
            r"\bthe truth about you\b|\bwho you really are\b|\bwhat you'?re really like\b",
            r"\bwhat kind of person you are\b|\btalking about what you did\b",
            r"\b(?:your|the) family (?:finally )?(?:knows|sees)\b",
            rf"\b(?:says|said|think|thinks|know|knows) (?:that )?you'?re {_INSULT}\b",
            r"\btell your boss about\b|\bwhole family will know\b",
            r"\b(?:the )?whole (?:village|family|town|street|school|church|estate)\b",
            r"\b(?:everyone|everybody) in the (?:family|village|town|street)\b|\bbrainwashed\b",
            r"\b(?:people|they|everyone) (?:are|is) (?:finally )?(?:seeing|starting to see)\b"
            r"|\bthe real you\b",
        ),
    ),
    "pressure": Tactic(
        "This pushes you to reply or come back. No reply is a complete answer.",
        (
            r"\b(?:just|please) (?:call|ring|answer|reply|text|talk|come|pick up|meet|see|give)\b",
            r"\b(?:one more|another) chance\b",
            r"\banswer (?:me|your phone)\b|\bpick up the phone\b|\bring her\b|\bring him\b",
            r"\b(?:you|u) (?:need|have|ought|should|must) to (?:call|talk|speak|see|come|forgive|"
            r"sort|meet|reply|answer|give|sit down)\b",
            r"\bwhy (?:are|r) (?:you|u) ignoring\b|\bignoring me\b",
            r"\bif (?:you|u) (?:don't|do not) (?:answer|reply|respond|call|come)\b",
            r"\bbegging you\b|\bfive minutes\b|\bone coffee\b|\btalk things through\b",
            r"\blet'?s (?:just )?(?:start over|try again|talk|meet)\b|\bclean slate\b",
            r"\bcome (?:home|back)\b",
            r"\b(?:we|you) (?:should|could) (?:at least )?(?:be friends|talk|meet)\b",
            r"\bdon'?t block\b|\bjust say yes\b|\bi'?ll be waiting\b",
            r"\bfamily is family\b|\blife'?s too short\b|\bsort this out\b",
            r"\bdon'?t cut (?:us|me)\b|\bdo not cut (?:us|me)\b",
            r"\b(?:can|will|could) you come to (?:\w+'s )?(?:party|christening|wedding|dinner|"
            r"lunch|birthday|christmas|sunday)\b",
            r"\bwants? to (?:meet|talk|see you)\b|\bowe me that\b|\byou better answer\b",
            r"\b(?:pick up|answer|reply) or\b|\bkeep ignoring\b",
            r"\bplease come\b|\bat least be friends\b",
            r"\bwhy did you block me\b|\bunblock me\b|\bcan we (?:please )?(?:just )?talk\b",
            r"\bplease let me\b|\blet me (?:prove|show|see you|explain|make)\b|\bgive (?:me|us|him"
            r"|her) a chance\b",
            r"\b(?:time|about time) you (?:forgave|forgive|called|rang|made up)\b|\bforgive (?:him"
            r"|her|them)\b",
            r"\b(?:visit|see) (?:him|her|them) (?:before|in hospital)\b|\b(?:he|she)\'?d (?:like"
            r"|love) you to\b",
            r"\b(?:ring|call) (?:your|ur) (?:mother|mum|mom|dad|father)\b",
        ),
    ),
}
