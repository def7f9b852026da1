"""Self-harm's signs in the writer's own words: hurting themselves, affairs put in
order, crisis words."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        "self_harm.cutting",
        alternatives=(
            r"\b(?:scratch\w*|cut\w*|burn\w*) my (?:arms|wrists|legs|skin|thighs)\b",
            r"\btill (?:they|it|i) bleeds?\b",
            r"\b(?:cut|cutting|hurt|hurting|harm|harming|burn|burning|starve|"
            r"starving)\s+myself\b(?! (?:cooking|shaving|on|at|in the|playing|by accident))",
            r"\bcutting again\b",
        ),
        matches=(
            "I scratch my arms",
            "I cut till it bleeds",
            "I've been hurting myself",
            "I'm cutting again",
        ),
        misses=(
            "I cut myself shaving this morning",
            "I cut myself a slice of cake",
        ),
        negatable=True,
        person="first",
    ),
    Rule(
        "self_harm.notes_and_cuts",
        # In the writer's own words: notes left "just in case", researching painless ways,
        # hurting themselves.
        alternatives=(
            r"\bi(?:'ve| have)? (?:written|wrote|left|been writing|started writing) "
            r"(?:\w+\s+){0,2}?(?:letters|notes|goodbye (?:letters?|"
            r"notes?))\b[^\n]{0,60}?\b(?:just in case|in case|when i'?m gone|for after)\b",
            r"\b(?:googl\w*|look(?:ing|ed)? up|search(?:ing|ed)?(?: for)?|research\w*|read"
            r"(?:ing)? about)\s+(?:\w+\s+){0,2}?(?:painless|quick|quickest|easy|easiest|"
            r"surest)\s+(?:ways?|methods?)\b",
            r"\bpainless ways? to (?:die|go|do it|end it)\b",
            r"\bi(?:'ve| have)? (?:cut|burnt|burned|scratched|bruised|hurt) (?:myself|my "
            r"(?:arms?|wrists?|legs?|thighs?|skin))\b(?! (?:cooking|shaving|on|at|in the|playing|"
            r"by accident))",
            r"\bi cut again\b",
            r"\b(?:started|start|been|was|am|i'?m) cutting (?:again|myself)\b",
            r"\bi (?:self[- ]?harm(?:ed)?|relapsed (?:with|into) (?:cutting|self[- ]?harm))\b",
        ),
        matches=(
            "I've written letters just in case",
            "I've been googling painless ways",
            "painless ways to die",
            "I've cut myself",
            "I cut again",
            "I've started cutting again",
            "I self harmed last night",
        ),
        misses=(
            "I cut myself on the tin lid",
            "I've never cut myself",
        ),
        negatable=True,
        person="first",
    ),
    Rule(
        "self_harm.indirect",
        # Indirect signs in the writer's own words: not seeing a future, a funeral pictured,
        # affairs put in order, "how easy it would be", "if I wasn't here".
        alternatives=(
            r"\b(?:don'?t|do not|can'?t|cannot) see myself (?:being )?(?:around|alive)(?: much| "
            r"for)?(?: (?:much )?longer| next year| in a year| by christmas)\b",
            r"\bthink(?:ing)? (?:about )?how easy it would be\b(?!\s+to\s+(?:get|make|move|find|"
            r"buy|fix|learn|set|cook|change|start|quit|leave (?:my job|work)))",
            r"\b(?:picturing|imagining|planning|thinking about|think about) my (?:own )?funeral\b",
            r"\b(?:giving|gave|given) away (?:all )?my (?:things|stuff|belongings|"
            r"possessions)\b(?![^.!?\n]{0,40}\b(?:charity|move|moving|sofa|declutter\w*|ebay|"
            r"vinted|gumtree|sell|selling)\b)",
            r"\bsort(?:ed|ing)? (?:out )?my (?:affairs|will)\b",
            r"\b(?:gave|giving|given|rehomed|rehoming) (?:away )?my (?:cat|dog|pets?) (?:away|"
            r"to)\b[^.!?\n]{0,60}?\b(?:sorted|sorting|calm|peace|ready|goodbye|won'?t need)\b",
            r"\bwhat'?s (?:even )?the point (?:of|in) me\b(?! (?:going|coming|doing|asking|"
            r"calling|texting|buying|cooking|making|bothering|getting|booking|paying)\b)",
            r"\bwhat is (?:even )?the point of me\b",
            r"\bif i (?:wasn'?t|weren'?t|was not|were not|was no longer|wasn'?t around|weren'?t "
            r"around) (?:here|around|alive)?(?: anymore| any more)?\b(?=[^.!?\n]{0,40}?\b"
            r"(?:pain|hurt|end|stop|over|easier|better|relief|relieved|miss)\b)",
            r"\b(?:pain|hurt|suffering) (?:would|will|could) (?:all )?(?:end|stop) if i\b",
            r"\bthinking (?:about|of) (?:the )?(?:river|bridge|tracks|railway|train line|cliffs?|"
            r"canal|motorway bridge|multi-?storey)\b(?! (?:walk|trip|view|cafe|pub))",
            # tired of being alive, said outright (a warning sign in suicide-prevention
            # guidance: talk of having no reason to live)
            r"\b(?:i'?m|i am|im) (?:just |so |completely |really )?(?:done|finished|through) "
            r"with (?:living|being alive|life|this life|existing)\b(?! (?:admin|coach\w*|in |at |"
            r"on |here|there|with (?:him|her|them)))",
        ),
        matches=(
            "I don't see myself being around much longer",
            "I keep thinking how easy it would be",
            "I've been planning my funeral",
            "I've been giving away my things",
            "I've sorted out my affairs",
            "I gave my dog to my sister, I feel at peace",
            "what's the point of me",
            "what is the point of me",
            "if i wasn't here the pain would stop",
            "the pain would end if i went",
            "I keep thinking about the bridge",
            "I am done with living, I have made my peace",
        ),
        misses=(
            "I keep thinking how easy it would be to move to Spain",
            "I'm done with life admin for today",
            "im so done with life in this town",
            "I'm giving away my stuff before the move",
        ),
        person="first",
    ),
    Rule(
        "self_harm.preparing",
        # In the writer's own words: places looked up, burns and cuts "again", a note to be
        # found, a pet given away and "ready".
        alternatives=(
            r"\b(?:googl\w*|look(?:ed|ing)? up|search\w*|research\w*|check(?:ed|ing)? out)\s+"
            r"(?:for\s+)?(?:the\s+)?(?:highest|tallest|nearest high|closest high) (?:bridges?|"
            r"buildings?|cliffs?|car parks?|multi-?storeys?|roofs?|drops?|railway bridges?) "
            r"(?:near me|nearby|around here|in (?:town|the area|the city)|near here|round here)\b",
            r"\b(?:burn\w*|cut\w*|scratch\w*|carv\w*|slic\w*) (?:my|me) (?:arm|arms|wrist|wrists|"
            r"leg|legs|thigh|thighs|skin|stomach|hip|hips)\b[^.!?\n]{0,30}?\b(?:again|lighter|"
            r"cigarette|razor|blade|compass|on purpose|till|until|to feel)\b",
            r"\b(?:hope|wish|pray) i (?:just )?(?:don'?t|never|won'?t|do not|will not|wouldn'?t) "
            r"wake up\b(?! (?:with|to|early|late|in|on|at|before|after|feeling|hungover|sick|"
            r"grumpy|tired|too)\b)",
            r"\b(?:nobody|no one|no-one) (?:will|would|'d) (?:even )?(?:realise|realize|care|"
            r"notice|miss me) (?:if|when) i (?:was|were|'m|am) (?:gone|dead|not here)\b",
            r"\bi (?:\w+ )?(?:wrote|written|writing|left) (?:a|the|my) (?:note|"
            r"letter)\b[^\n]{0,80}?\b(?:use it|(?:\w+'ll|will|to) find it|going to use|for "
            r"after|when i'?m gone|goodbye|read it after|after i'?m)\b",
            r"\b(?:given|gave|giving|rehomed|rehoming) (?:away )?(?:my|the) (?:cat|dog|pets?|"
            r"rabbit|guinea pigs?|bird|fish) (?:away|to)\b[^\n]{0,80}?\b(?:i'?m (?:\w+ )?ready|"
            r"ready now|cleared out|sorted|goodbye|won'?t need|at peace)\b",
        ),
        matches=(
            "I've been googling the highest bridges near me",
            "I've been burning my arms with a lighter",
            "I hope I don't wake up",
            "no one would notice if i was gone",
            "I wrote a note, mum will find it",
            "I've given my cat to my neighbour, I'm ready now",
        ),
        misses=(
            "I hope I don't wake up late",
            "I wrote a note to the landlord about the boiler",
        ),
        person="first",
    ),
    Rule(
        "self_harm.means_in_own_words",
        # Means and intent in the writer's own words.
        alternatives=(
            r"\b(?:swerve|swerving|drive|driving|steer|steering|walk|walking|step|stepping|run|"
            r"running) (?:\w+ )?(?:into|in front of) (?:oncoming )?(?:traffic|a lorry|a bus|a "
            r"train|a truck)\b",
            r"\b(?:garage|car) with the engine running\b",
            r"\bengine running in the garage\b",
            r"\bhose(?:pipe)? (?:to|from|on|into) the exhaust\b",
            r"\b(?:written|wrote|made|sorted|updated) (?:out )?my will\b[^\n]{0,60}\b"
            r"(?:instructions|letters?|goodbye|the cat|the dog|who gets|ready)\b",
            r"\b(?:punch|punching|punched|slap|slapping|slapped|bite|biting|pinch|pinching) "
            r"myself\b(?! (?:awake|to (?:stay|keep|wake) (?:awake|up)))",
            r"\b(?:not going to|won'?t) be (?:here|around|alive) (?:much longer|for long|by|"
            r"after)\b(?=[^\n]{0,60}\b(?:i'?ve decided|made up my mind|made my decision|it'?s "
            r"decided|i'?m ready)\s*(?:[.!,]|$))",
            r"\b(?:don'?t|do not) care (?:what happens to me|if i (?:live|die|wake up|make it)|"
            r"whether i (?:live|die))\b",
            r"\b(?:razor ?blades?|razors|blades|pills|tablets|rope)\b[^.!?\n]{0,40}\b(?:keep|"
            r"kept|been) (?:holding|looking at|staring at|counting|touching) (?:them|it)\b",
            r"\b(?:move on|forget (?:about )?me|be fine|be happier|be relieved|cope|"
            r"manage)\b[^.!?\n]{0,25}\bif i (?:was|were) (?:dead|gone)\b",
        ),
        matches=(
            "I want to swerve into oncoming traffic",
            "sitting in the car with the engine running",
            "engine running in the garage",
            "hosepipe to the exhaust",
            "I've written my will, instructions for the cat",
            "I punch myself when it gets bad",
            "I won't be around much longer. I've decided.",
            "I don't care if i die",
            "the razor blades, I keep holding them",
            "they'd all move on if i was dead",
        ),
        misses=(
            "I pinch myself to stay awake",
            "I won't be around much longer, I'm off to Spain",
        ),
        person="first",
    ),
    Rule(
        "self_harm.crisis_words",
        # More of the writer's own crisis words: the pain to stop for good, ways to do it,
        # voices, pills taken or mixed, not promising to be safe.
        alternatives=(
            r"\b(?:giv(?:en|ing|e)|gave) (?:all )?my (?:things|stuff|belongings|possessions) "
            r"away\b(?![^.!?\n]{0,40}\b(?:charity|move|moving|sofa|declutter\w*|ebay|vinted|"
            r"gumtree|sell|selling)\b)",
            r"\b(?:want|need|wish|make) (?:the|this|all the|my) (?:pain|hurt|suffering) (?:to "
            r")?(?:stop|end|go away) (?:for good|forever|for ever|permanently)\b"
            r"(?![^.!?\n]{0,30}\b(?:op|operation|surgery|physio|doctor|gp|knee|back|tooth|"
            r"dentist|hip)\b)",
            r"\b(?:drowning|hopeless|empty|numb|worthless|exhausted|tired of "
            r"everything)\b[^.!?\n]{0,40}\bwant (?:it|this|everything|it all) to (?:end|stop)\b",
            r"\b(?:thinking|thought|think) (?:of|about) (?:ways|how) to (?:do it|end it|go|die|"
            r"not be here)\b(?! (?:cheaper|better|faster|quicker|differently|properly|right|"
            r"without|for)\b)",
            r"\bways to (?:die|kill myself|end it)\b",
            r"\b(?:voices?|something) (?:in my head )?(?:keeps? |is |are )?(?:telling|tells|"
            r"told) me to (?:jump|die|kill|end|hurt|cut|do it)\b",
            r"\b(?:mixing|mixed|mix) (?:it|alcohol|drink|vodka|wine|booze) with (?:my|the) "
            r"(?:pills|tablets|meds|medication)\b(?![^.!?\n]{0,40}\b(?:fine|ok|okay|safe|"
            r"pharmacist|doctor|gp|allowed)\b)",
            r"\b(?:scared|afraid|frightened|terrified|worried) (?:of )?what i (?:might|will|"
            r"could|'ll|would|'d) do (?:to myself|tonight)\b",
            r"\bwhat i(?:'ll| will| might| could|'d| would) do to myself\b",
            r"\b(?:can'?t|cannot|don'?t think i can|not sure i can|won'?t) (?:promise|guarantee|"
            r"say) (?:that )?i'?ll (?:be|stay|keep myself) safe\b",
            r"\b(?:don'?t|do not) (?:feel|think i'?m|know if i'?m) safe (?:from myself|with "
            r"myself)\b",
            r"\bno reason (?:for me )?to (?:stay|be here|live|keep going|go on|carry on|stick "
            r"around)\b(?! (?:at|in|for|with|late|longer|till|until)\b)",
            r"\b(?:thinking|thought) (?:about|of) (?:walking|wading|stepping|jumping|going) "
            r"(?:in(?=\s*(?:[.!]|$))|into the (?:river|sea|water|canal|lake))",
        ),
        matches=(
            "I've given all my stuff away",
            "I want the pain to stop forever",
            "I feel so empty, I want it to end",
            "I've been thinking of ways to end it",
            "I looked up ways to die",
            "the voices keep telling me to jump",
            "I've been mixing vodka with my pills",
            "I'm scared of what i might do tonight",
            "I don't know what i'll do to myself",
            "I can't promise i'll be safe",
            "I don't feel safe from myself",
            "there's no reason for me to stay",
            "I keep thinking about walking into the sea",
        ),
        misses=(
            "I want the pain to stop for good after my knee surgery",
            "there's no reason to stay late",
        ),
        person="first",
    ),
)
