"""Stalking through the user's phone, accounts, keys and post, and from new numbers."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule
from flows.analysis.danger.vocabulary import HOME

RULES: tuple[Rule, ...] = (
    Rule(
        "stalking.hacked",
        alternatives=(
            r"\b(?:hacked|hacking|logged into|logging into|went through|going through|spying on|"
            r"monitoring)\s+(?:my|your)\s+(?:phone|messages|emails|email|accounts?|texts|"
            r"whatsapp|icloud|facebook|instagram|location)\b",
        ),
        matches=(
            "he hacked my phone",
            "he's been logging into my email",
        ),
        misses=("no more going through your phone, I promise",),
        negatable=True,
    ),
    Rule(
        "stalking.new_numbers",
        alternatives=(
            r"\b(?:new|different|fake|private|withheld|unknown|blocked|burner|other)\s+"
            r"(?:numbers|accounts|profiles)\b",
        ),
        matches=("he keeps messaging from new numbers",),
        misses=("I got a new number",),
    ),
    Rule(
        "stalking.photos_of_home",
        alternatives=(
            r"\b(?:pictures|photos|photo|picture|videos|video)\s+of\s+(?:my|your|ur)\s+"
            rf"(?:\w+\s+)?{HOME}",
        ),
        matches=("he sent photos of my house",),
        misses=("photos of my holiday",),
    ),
    Rule(
        "stalking.access",
        # Access to the user's accounts, devices or home.
        alternatives=(
            r"\b(?:password|passcode|pin|login|log-?in|code) (?:to|for) (?:your|ur|my) (?:\w+ "
            r")?(?:icloud|email|emails|phone|account|accounts|bank|facebook|instagram|insta|"
            r"whatsapp|snapchat|laptop|google|gmail|ipad|tablet)\b",
            r"\b(?:still|i) (?:know|have|got|'ve got|'ve still got) (?:the |your |ur |a )?"
            r"(?:buzzer|door|gate|alarm|entry|key) ?(?:code|key|fob)\b",
            r"\bi (?:still )?(?:have|'ve got|got|kept) (?:a|the|your) (?:spare "
            r")?key\b[^\n]{0,40}\b(?:sleep (?:well|tight)|sweet dreams|night night|see you "
            r"soon|goodnight)\b",
            r"\bi (?:still )?(?:have|'ve got|got|kept) (?:a |the )?(?:spare )?key (?:to|for) "
            r"(?:your|ur|yours|the flat|the house)\b",
            r"\b(?:logged|logging|logs|signed|signing) (?:in)?to (?:my|your|ur) (?:\w+ )?"
            r"(?:account|accounts|icloud|email|phone|facebook|instagram|whatsapp|snapchat)\b",
            r"\b(?:logged into|login to|log in to|accessed) (?:my|your|ur) account\b",
            r"\b(?:read|reading|reads|seen|seeing|screenshotted) (?:all )?(?:your|ur|my) "
            r"(?:messages|texts|emails|dms|whatsapps|chats)\b",
            r"\b(?:he|she|they|someone)\b[^.!?\n]{0,30}?\b(?:turned on|switched on|set up|"
            r"installed|enabled|sees|see|can see|checks?|checking|tracks?|tracking|watch(?:es|"
            r"ing)?|using) (?:\w+ )?(?:location sharing|find my|life360|snap ?map|my location|"
            r"your location)\b",
            r"\b(?:location sharing|life360|snap ?map|find my (?:iphone|phone|friends))(?:'s| is|"
            r" was)? ?(?:still )?(?:on|switched on|turned on)\b",
            r"\bshar(?:e|es|ed|ing) (?:my|your|ur) location with (?:him|her|them)\b",
            r"\bput (?:something|an app|a tracker|spyware|an airtag) (?:on|in) (?:my|your|ur)\b",
        ),
        matches=(
            "he knows the password to my email",
            "I still know the door code",
            "I still have a key. sleep well",
            "I have a spare key for your flat",
            "he logged into my instagram account",
            "he accessed my account",
            "he reads all my messages",
            "he turned on location sharing",
            "life360 is still on",
            "I shared my location with him",
            "he put spyware on my laptop",
        ),
        misses=(
            "I share my location with my mum",
            "what's the password for the wifi",
        ),
    ),
    Rule(
        "stalking.fake_accounts",
        # watching from fake accounts, looking in through the windows
        alternatives=(
            r"\b(?:fake|secret|burner) (?:accounts?|profiles?|numbers?)\b[^.!?\n]{0,50}?\b"
            r"(?:look|looking|watch|watching|check|checking|message|messaging|follow|following|"
            r"view|viewing|stalk\w*)\b(?:\s+\w+){0,2}?\s+(?:my|me|mine|you|your|ur)\b",
            r"\b(?:look|looking|looked|peer|peering|peered|staring|stared) (?:in|into|through) "
            r"(?:my|our|your|ur) (?:\w+ )?(?:windows?|letterbox|letter box)\b",
        ),
        matches=(
            "he uses fake accounts to look at my photos",
            "he was looking through my window",
        ),
        misses=("I made a fake account for the bakery",),
    ),
    Rule(
        "stalking.wont_be_stopped",
        alternatives=(
            r"\byou'?ll turn (?:a)?round and (?:i'?ll|i will) be (?:there|right there|behind "
            r"you)\b",
            r"\b(?:made|created|set up|making|using|opened|started) (?:a |another |yet another "
            r")?(?:new|fake|second|different|secret|burner) (?:account|profile|number|page|"
            r"email)s?\b(?=[^.!?\n]{0,60}\b(?:after i blocked|to (?:follow|message|contact|"
            r"watch|stalk|get (?:round|around)|see|view|text|call|add|find|look at) (?:me|my)\b))",
            r"\b(?:knows?|found|got|has|had|getting) (?:my|our) (?:new )?(?:address|number|"
            r"postcode|location|shift pattern|rota|work address)\b[^.!?\n]{0,60}?\b(?:i "
            r"(?:never|didn'?t|did not|haven'?t) (?:gave|given|give|told|tell|shared)|nobody|no "
            r"one|no-one)\b",
            r"\b(?:keep|kept|keeps|i'?ve been) seeing (?:him|her|them|his car|her car|his "
            r"van)\b[^.!?\n]{0,40}?\b(?:my (?:road|street|house|flat|work|building|gate)|"
            r"outside|near my|everywhere|wherever)\b",
            r"\b(?:he|she|they|someone|somebody)(?:'s| has| have|'ve| is| was| keeps?)? (?:been "
            r")?(?:going|gone|went|goes|go) through (?:my|our) (?:bins|rubbish|post|mail|"
            r"recycling)\b",
            r"\b(?:blocking|changing your number|moving|hiding|running) (?:me )?(?:won'?t|will "
            r"not|doesn'?t|isn'?t going to|is not going to) (?:stop me|save you|keep me away)\b",
            r"\bi (?:already )?(?:know|have|got|'ve got) (?:your|ur) new (?:number|address|email|"
            r"account|place)\b",
            r"\b(?:think|know|sure|worried|scared|afraid) (?:that )?(?:he|she|they) (?:still "
            r")?(?:has|have|'s got|kept|copied|cut) (?:a|my|the) (?:spare )?key\b(?! to (?:the|"
            r"his|her|their) (?:office|shed|car|garage|van|locker|gym|school|building|work))",
            r"\b(?:things|stuff) (?:have been |being |been |keep being |keep getting )?(?:moved|"
            r"going missing)\b[^.!?\n]{0,40}\b(?:when i'?m out|while i'?m out|while i was out|"
            r"when i was out)\b",
        ),
        matches=(
            "you'll turn around and I'll be there",
            "he made a new account after i blocked him",
            "he's got my new address and i never gave it to him",
            "I keep seeing him outside my work",
            "someone's been going through my bins",
            "blocking me won't stop me",
            "I know your new number",
            "I think he still has a key",
            "things have been moved while i was out",
        ),
        misses=("I think he still has a key to the office",),
    ),
    Rule(
        "stalking.somehow_has_number",
        alternatives=(
            r"\b(?:got|found|has|knows|getting) (?:hold of )?(?:my|your) (?:new )?(?:number|"
            r"address|email)\b[^.!?\n]{0,10}\bsomehow\b",
            r"\bsomehow (?:got|found|knows|has) (?:hold of )?(?:my|your) (?:new )?(?:number|"
            r"address|email)\b",
        ),
        matches=(
            "he got my new number somehow",
            "he somehow got my number",
        ),
        misses=("he got my number from the group chat",),
    ),
)
