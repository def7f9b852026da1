"""The tactics a message can use, each with a plain explanation and the phrases that show it.

Patterns run over the normalised text (lower case, "u" -> "you", "dont" -> "don't", ...;
see normalize.py), so write them in lower case with straight apostrophes.  ``self_harm``
and most of ``threat`` come from danger/; ``logistics`` from greyrock.py.  The ``why``
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
            r"\bi was (?:a |an )?(?:monster|cruel|vile|selfish|unfair|nasty|horrible|awful"
            r"|terrible|"
            r"out of order|a dick|an arse|a prick|a bastard)(?: to you)?\b",
            r"\bi (?:know i )?(?:said|did) (?:horrible|awful|terrible|cruel|nasty|hurtful|"
            r"unforgivable|some horrible|some awful) things\b|\bthings i can'?t take back\b",
            r"\btake (?:every word|it all|everything i said) back\b|\bhow i treated you\b",
            r"\bashamed of (?:myself|me|what i)\b|\bno excuses?\b|\bnot (?:an|making) excuses?\b",
            r"\b(?:kinder|better|nicer|gentler) to you than i (?:was|ever was|have been)\b",
            r"\bi wasn'?t (?:easy|fair|kind|good to you|there for you)\b",
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
            r"\bmiss(?:es|ing)? (?:you|ya|your)\b|\bi (?:really |still |so |just )?miss\b",
            r"\bwe miss you\b",
            r"\b(?:thinking|thought|think|dreamt|dreamed|dream|dreaming) (?:about|of) (?:you|us)\b",
            r"\bcan'?t stop thinking\b",
            r"\bremember (?:when|our|that time|the time|how we|we)\b|\blike old times\b",
            r"\bsmells? (?:like|of) you\b|\byou were my (?:best friend|everything|world|rock"
            r"|person|"
            r"home)\b|\bour (?:first )?(?:anniversary|song|special place)\b",
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
            r"\byou owe (?:me|him|her|us|it)\b(?! [£$€]?\d| for (?:half|the|his|her))",
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
            r"\bhope (?:\w+ ){0,5}(?:is|was|are) worth it\b|\bin (?:absolute |complete )?bits\b"
            r"|\bin a (?:proper |right |terrible |real )?state\b|\bbeside (?:herself|himself)\b"
            r"|\bcrying (?:his|her|their) eyes out\b",
            r"\b(?:break|breaks|broke|breaking) (?:her|his|their) heart\b|\bdon'?t punish\b",
            r"\b(?:might not|may not|won'?t) (?:get|have) (?:another|much more|many more) "
            r"(?:chance|time|christmases|birthdays)\b|\bnot (?:be )?around (?:forever|much "
            r"longer)\b",
            r"\bdon'?t care about (?:family|your family|anyone|us|me|him|her)(?: anymore)?\b",
            r"\bjust (?:tell|let) me (?:know )?(?:you'?re|you are) (?:alive|ok|okay|safe)\b",
            r"\bhow much you'?ve hurt\b|\byou'?ve hurt (?:her|him|them|us|your)\b",
            r"\bthis is what i get\b|\bstopped caring\b|\bcan'?t show (?:her|his|my) face\b",
            r"\b(?:hasn'?t|haven'?t|isn'?t|not) been (?:right|the same|himself|herself) since "
            r"you\b",
            r"\bkeeps? asking (?:where|when|why|if) (?:you|auntie|uncle|mummy|daddy|mum|dad|"
            r"nana|granny)\b|\bwhat am i (?:meant|supposed) to (?:tell|say to) (?:them|him|her|"
            r"the kids)\b",
            r"\byou did this to (?:me|us|him|her)\b|\bmean the world to (?:her|him|them|me)\b"
            r"|\bif you (?:have|had) any (?:love|decency|respect|heart)\b|\bcarried you\b"
            r"|\bgave up (?:my|everything|her|his)\b",
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
            r"\bthe villain\b|\bthe bad (?:one|person)\b|\bi (?:don'?t|do not) have (?:anyone"
            r"|anybody"
            r"|no ?one)(?: else)?\b|\bi'?ve got no ?one\b|\bnobody else to\b|\bno one else to\b",
            r"\blost (?:my|the) (?:job|flat|house|home|friends)\b|\blost everything\b"
            r"|\beveryone'?s (?:gone|left|turned)\b",
        ),
    ),
    "urgency": Tactic(
        "This adds urgency, so you feel you must answer now. You can take your time.",
        (
            r"\burgent(?:ly)?\b|\bemergency\b|\basap\b|\bimmediately\b",
            r"\b(?:call|ring|answer|text|reply|respond|message) (?:me )?(?:back )?(?:now|asap|"
            r"right now|tonight|today|straight away)\b",
            r"\blast chance\b|\btime[- ]sensitive\b|\bbefore it'?s too late\b",
            r"\b(?:in|within) the next (?:\d+ |an |one |two |few |)(?:hours?|minutes?|mins?)\b",
            r"\bclock'?s ticking\b|\b(?:you'?ve got|you have|got) (?:until|till|til) "
            r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tonight|tomorrow|the "
            r"end)\b",
            r"\bnot tomorrow\b|\bbefore it'?s too late\b|\bsomething'?s come up\b|\bits important\b"
            r"|\bit'?s important\b",
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
            r"\bsee what happens\b(?! (?:with|if|when|before|after|at|on|in|to|tomorrow|next)\b)"
            r"|\bor else\b|\byou'?ll see\b|\byou'?ll pay\b|\bmake you pay\b",
            r"\benjoy (?:your freedom|it) while it lasts\b|\bnobody leaves me\b",
            r"\bcan'?t (?:just )?walk away from me\b",
            r"\bchanged (?:her|his|their) will\b|\bwhole family will know\b",
            r"\bknow about your past\b|\bwon'?t get away with\b",
            r"\b(?:kill yourself|go die)\b",
            r"\bget used to it\b",
            r"\bwhat i\'?m (?:really )?capable of\b|\bwish (?:you\'?d|you had) never met me\b",
            r"\b(?:full|sole) custody\b|\blucky to see (?:them|the kids|her|him)\b",
            r"\bgrow up knowing what you did\b|\bkeep this up and\b",
            r"\b(?:get|getting|got) (?:my|his|her|their|the) (?:solicitor|lawyer|lawyers|police)"
            r" involved\b|\bsee where (?:it|that) gets you\b|\bi'?ll (?:just )?get another\b",
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
            r"\bwhy are you being like this\b|\byou make everything\b|\bfor once\b",
            r"\byou (?:always|never) (?:listen|listened|think|thought|help|helped|bother|bothered|"
            r"forget|forgot|pay|paid|ruin|ruined|lie|lied|blame|start|started|twist|twisted|care|"
            r"cared|let me|put (?:me|us|the kids)|take (?:responsibility|my side)|make (?:it|this|"
            r"everything|me))\b",
            r"^\W*typical\b|\btypical\.|\bif you'?d (?:bothered|listened|read|paid attention)\b",
            r"\byou'?ve (?:already )?(?:ruined|wrecked|destroyed)\b|\bthe problem is you\b"
            r"|\byou(?:'re)? lying\b|\b(?:this|that|it)(?:'s| is| will be|'ll be) on you\b",
        ),
    ),
    "gift": Tactic(
        "This looks like a gift or a favour, which can create a feeling of owing them.",
        (
            r"\b(?:bought|got|sent|left|ordered|paid for)\s+(?:\w+\s+){0,3}?(?:you|flowers|tickets?"
            r"|"
            r"presents?|gifts?|chocolates|something)\b",
            r"\b(?:presents?|gifts?|flowers|bouquet|chocolates)\b",
            r"\b(?:sent|put|transferred|paid|popped) (?:\w+ ){0,3}(?:into|to|in) (?:your|ur) "
            r"(?:account|bank)\b|\bbooked (?:us|you)\b|\bmy treat\b(?=[^\n]{0,40}\b(?:remember|we"
            r"|x)\b)",
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
            r"\b(?:wants?|wanted|asked|told|begged|made) me to (?:find out|ask|send|promise|get)\b",
            r"\b(?:asked|told) to (?:let you know|tell you|pass)\b|\bi was asked to\b",
            r"\b(?:said|says|told me) to (?:say|tell you|pass|let you)\b|\bwants? you to know\b",
            r"\b(?:he|she|they) (?:says|said) (?:he'?s|she'?s|they'?re|it'?s|its|that|to)\b",
            r"\bmessage from\b|\b(?:gave|handed) me (?:a|this|the) (?:letter|card|note|message|"
            r"present|parcel) for you\b",
            r"\byour (?:husband|wife|ex|partner|mum|mom|dad|father|mother|brother|sister|family) "
            r"(?:came to see me|came round|rang me|called me|visited me|has told me|told me)\b",
            r"\b(?:your|ur) (?:mum|mom|dad|mother|father|grandad|grandma|nan|nana|gran|granny|"
            r"sister|brother|aunt|uncle|cousin) (?:\w+ )?wants? to\b|\bnan wants\b",
            r"\b(?:he|she|they)(?:'s| has| have) been round (?:mine|ours|here|my house)\b",
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
            r"(?<!let's )(?<!lets )\b(?:just|please) (?:call|ring|answer|reply|text|talk|come|"
            r"pick up|meet|see|give)\b",
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
            r"\byou (?:should|could|ought to|need to|have to|must) (?:at least |really |just |"
            r"definitely )?(?:pop round|come|call|ring|text|visit|see|hear|give|talk|speak|reach "
            r"out"
            r"|get in touch|make up|forgive|send|reply|answer|meet)\b",
            r"\bhear (?:him|her|them|me) out\b|\bavoid (?:him|her|them|me) forever\b"
            r"|\b(?:start|try) (?:again|over)\b|\bjust (?:a|one) (?:coffee|drink|chat|call|text)\b",
            r"\b(?:send|drop|give) (?:her|him|them|me) a (?:quick )?(?:text|message|call|ring"
            r"|line)\b",
            r"\b(?:it'?d|it would|would) mean (?:the world|so much|a lot)\b|\bnice gesture\b",
            r"\bsit down with you\b|\bdon'?t punish\b|\bplease (?:call|ring|text|message|contact|"
            r"reply|answer|come|see|visit|talk|speak|unblock|think about)\b",
            r"\btoo much to ask\b|\bhave to come\b|\byour choice\b|\bif you (?:have|had) any love\b"
            r"|\bcome,? come\b|\bi'?ll (?:just )?get another\b|\bas friends\b",
        ),
    ),
}
