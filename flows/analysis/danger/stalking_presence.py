"""Stalking in person: turning up, waiting outside, following, driving past."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule
from flows.analysis.danger.vocabulary import (
    ABUSER,
    HOME,
    KIDS,
    KNOWS_THE_SCHOOL,
    PHOTO_OF,
    PHOTO_OF_THE_SCHOOL,
    SEE_ME_COMING,
)

RULES: tuple[Rule, ...] = (
    Rule(
        "stalking.will_wait_outside",
        # announcing that they will wait outside the user's places, or turn up at work
        alternatives=(
            r"\b(?:i'?ll|i will|i'?m going to|i'?m gonna|gonna|i'?m coming to)\s+"
            r"(?:\w+\s+){0,2}?(?:be|wait|waiting|sit|park|stand)\s+"
            r"(?:\w+\s+){0,2}?outside\s+(?:your|ur)\s+(?:\w+\s+)?(?:work|office|house|flat|"
            r"home|place|door|school|gym|job|workplace|building|window)\b",
            r"\b(?:i'?ll|i will|i'?m going to|i'?m gonna|gonna)\s+(?:be|wait|come|turn up|show "
            r"up)\s+(?:\w+\s+){0,2}?(?:at|to)\s+(?:your|ur)\s+(?:work|office|workplace|job|"
            r"gym)\b",
        ),
        matches=(
            "I'll be waiting outside your work",
            "I'm going to turn up at your office",
        ),
        misses=("I'll be waiting outside the cinema",),
    ),
    Rule(
        "stalking.turned_up",
        alternatives=(
            r"\b(?:turn(?:ed|s|ing)?|show(?:ed|s|ing)?|shown) up\s+(?:at|outside|to)\s+(?:my|"
            r"your|ur|the|our)\b",
        ),
        matches=("he turned up at my work",),
        misses=("it turned up in the post",),
    ),
    Rule(
        "stalking.turned_up_at_family",
        alternatives=(
            r"\b(?:turned|turns|turning|turn) up (?:\w+ ){0,2}?(?:at|outside|on) (?:my|our|"
            r"your|ur|the) (?:mum's|mom's|parents'?|house|flat|work|door|doorstep|school|"
            r"sister's|brother's|friend's|place|office|gym|new place)\b",
            r"\b(?:punched|kicked|smashed|booted) (?:the|my|our|her|his) (?:front |back )?door "
            r"in\b",
        ),
        matches=(
            "he turned up at my mum's",
            "he kicked the front door in",
        ),
        misses=("my cousin turned up late",),
    ),
    Rule(
        "stalking.waiting_near",
        alternatives=(
            r"\b(?:parked|waiting|sitting|sat|standing|stood|lurking|hanging around|hanging "
            r"about|watching|circling)\s+(?:\w+\s+){0,2}?(?:at|by)\s+(?:my|your|ur|the|"
            r"our)\s+(?:\w+\s+)?(?:gates?|school|work|office|flat|house|car|gym|job|nursery|"
            r"station|bus stop|workplace|college|uni|university)\b(?![^.!?\n]{0,40}\bto "
            r"(?:give|drop|return|hand|collect|pick)\b)",
            r"\b(?:parked|waiting|sitting|sat|standing|stood|lurking|hanging around|hanging "
            r"about|watching|circling|been|was|were)\s+(?:\w+\s+){0,2}?(?:outside|across from|"
            r"across the road from|near|at the end of)\s+(?:my|your|ur|the|our)\s+"
            rf"(?:\w+\s+)?{HOME}",
        ),
        matches=(
            "he was waiting at my gym",
            "a car was parked outside my house",
        ),
        misses=("he was waiting at my work to drop off the kids' bags",),
    ),
    Rule(
        "stalking.outside",
        alternatives=(
            r"\b(?:i'?m|i am|he'?s|she'?s|he is|she is)\s+(?:\w+\s+)?outside\b",
            rf"\b{ABUSER}(?:'s| is| was| keeps? (?:being|sitting|waiting|standing)| has been| "
            r"have been)\s+(?:\w+\s+)?outside\b",
            r"\b(?:car|van)(?:'s| is)\s+(?:parked\s+)?outside\b",
        ),
        matches=(
            "I'm outside",
            "my ex has been outside all night",
            "his car's parked outside",
        ),
        misses=("the dog's outside",),
    ),
    Rule(
        "stalking.at_your_road",
        alternatives=(
            r"\bi'?m (?:at|outside|parked (?:at|outside|on|up)|sat (?:at|outside|in)|waiting "
            r"(?:at|outside)) (?:the (?:bottom|top|end|corner) of )?(?:your|ur) (?:road|street|"
            r"house|flat|building|work|office|door|drive|driveway|school|block)\b",
            r"\b(?:keep|keeping|kept) an eye on (?:you|u|her|him)\b(?=[^\n]{0,80}\b(?:going|"
            r"says|told me|every|at the|tues|mon|wed|thurs|fri|sat|sun)\w*)",
            r"\b(?:asked|got|paid|told) (?:my|his|her|a) \w+ to (?:keep an eye on|watch|follow|"
            r"check on) (?:you|u)\b",
            r"\bwhich (?:street|road|flat|house)\b[^.!?\n]{0,30}\bwhich (?:flat|house|floor|"
            r"door)\b",
            r"\bwhat colou?r (?:the|your|ur) (?:front )?door is\b",
            r"\benjoy (?:your|ur) little\b",
            r"\btr(?:ying|ied|ies|y) (?:your|ur|my|the) (?:front |back )?(?:door|door handle|"
            r"handle|windows?|gate)\b",
            r"\b(?:had|got|get|getting) (?:a )?(?:spare )?keys? cut\b",
            r"\bstanding over (?:the|my|your|ur) bed\b",
            SEE_ME_COMING,
            PHOTO_OF_THE_SCHOOL,
            KNOWS_THE_SCHOOL,
            rf"{PHOTO_OF}(?:house|flat|front door|car|work|office|street|gate|door)\b",
            r"\bi know (?:which|what|where) (?:gym|bus stop)\b",
        ),
        matches=(
            "I'm at the end of your road",
            "I'm keeping an eye on you. going to the gym again?",
            "he asked his brother to watch you",
            "which street and which flat",
            "I know what colour your door is",
            "enjoy your little holiday",
            "someone tried the door handle last night",
            "he got a spare key cut",
            "he was standing over the bed",
            "you won't see me coming",
            "a photo of your son's school",
            "I know which school",
            "a pic of your house",
            "I know which gym you go to",
        ),
        misses=(
            "what colour is your door",
            "enjoy the rest of your day",
        ),
    ),
    Rule(
        "stalking.followed_or_tracked",
        alternatives=(
            r"\bfollow(?:ed|ing|s)?\s+(?:me|you)\s+(?:home|to|from|around|everywhere|again|"
            r"into)\b",
            r"\bfollow(?:ed|ing|s)? (?:me|you) (?:on|in) (?:his|her|their|a) (?:bike|motorbike|"
            r"scooter|car|van)\b",
            r"\b(?:tracker|tracking device|airtag|air tag|spyware|stalkerware)\b",
            r"\btrack(?:s|ed|ing)?\s+(?:my|your|her|his)\s+(?:phone|car|location|movements)\b",
        ),
        matches=(
            "he followed me home",
            "he followed me in his car",
            "I found an airtag in my bag",
            "he tracks my phone",
        ),
        misses=("he followed me on instagram",),
    ),
    Rule(
        "stalking.drove_past",
        alternatives=(
            r"\b(?:drove|driving|drive|drives|walked|walking|walks|went|cycled|been|popped|"
            rf"swung)\s+(?:past|by|round|around)\s+(?:your|ur|my|the)\s+{HOME}"
            r"(?![^.!?\n]{0,30}\bto (?:drop|give|collect|pick|deliver|return|fix)\b)",
        ),
        matches=("he keeps driving past my flat",),
        misses=("I drove past your house to drop off the keys",),
    ),
    Rule(
        "stalking.will_find_you",
        alternatives=(
            r"\b(?:i'?ll|i will|i'?m going to|we'?ll) (?:\w+ )?find (?:you|u)\b",
            r"\b(?:you )?can'?t hide\b(?! behind)",
            r"\bwherever (?:you|u|i) go\b",
            r"\b(?:turns?|turned|shows?|showed) up (?:wherever|everywhere|every time)\b",
            r"\blook(?:ing)? over (?:your|ur) shoulder\b",
            r"\bnowhere to hide\b",
            r"\b(?:i'?m|i am|i'?ve been|been) watching (?:you|u)\b",
        ),
        matches=(
            "I'll find you",
            "you can't hide",
            "wherever you go",
            "he turns up everywhere",
            "you'll be looking over your shoulder",
            "there's nowhere to hide",
            "I've been watching you",
        ),
        misses=(
            "I've been watching you play football",
            "you can't hide behind your mum",
        ),
    ),
    Rule(
        "stalking.broke_in",
        alternatives=(
            r"\b(?:broke|broken|breaking|break)\s+into\s+(?:my|your|the|our)\b",
            r"\b(?:banging|knocking|hammering|pounding)\s+on\s+(?:my|the|your)\s+(?:door|window)",
        ),
        matches=(
            "someone broke into my flat",
            "he was banging on my door at 3am",
        ),
        misses=("they broke into song",),
    ),
    Rule(
        "stalking.coming_round",
        alternatives=(
            r"\b(?:or|otherwise|else|after that)\s+(?:i'?m|i am|i'?ll|i will)\s+(?:coming|come|"
            r"turning up|showing up)\s+(?:round|over|to)\b",
        ),
        matches=("pick up or I'm coming round",),
        misses=("after that I'm going home",),
    ),
    Rule(
        "stalking.everywhere",
        # Turning up, being everywhere, knowing what they were never told.
        alternatives=(
            r"\b(?:i'?m|i am|i'?ll|i will|i'?ll be) (?:be )?(?:coming|come) (?:for|after) (?:you|"
            r"u)\b",
            r"\bcome (?:outside|out here|downstairs|to the (?:door|window))\b",
            r"\blook out (?:of )?(?:your|ur|the) window\b",
            r"\bevery (?:single )?time i (?:go|leave|get|walk|pop|turn)\b[^.!?\n]{0,60}?\b"
            r"(?:is|are|'s) (?:there|outside|waiting)\b",
            r"\b(?:keeps?|kept|someone|somebody|he|she|they)\s+(?:\w+\s+)?(?:leaving|left|"
            r"putting|put)\b[^.!?\n]{0,40}?\b(?:on|at|outside|under|through|in) (?:my|our) "
            r"(?:windscreen|doorstep|door|car|step|porch|letterbox|wipers|windows?|desk|locker|"
            r"pigeonhole)\b",
            r"\b(?:he|she|they) (?:\w+ )?(?:knew|knows|know) (?:exactly )?(?:what|where|who|"
            r"when) i (?:was|had|did|went|am|'m|ate|bought|wore|said)\b",
            r"\b(?:never|haven'?t|didn'?t|did not|have not) told (?:anyone|anybody|him|her|them) "
            r"(?:my|where|about my|what)\b",
            r"\b(?:restraining|protection|non-molestation|court) order\b[^.!?\n]{0,40}?\b"
            r"(?:stop|keep|scare) me\b",
            r"\bpiece of paper\b(?=[^\n]{0,60}\b(?:see you|find you|coming))",
            r"\b(?:won'?t|can'?t|cannot|isn'?t going to|not going to|nothing (?:will|can)) "
            r"(?:\w+ )?(?:stop|keep) me (?:from )?(?:seeing you|finding you|away)\b",
            r"\b(?:keeps?|kept|keep on) (?:driving|walking|going|cycling|running|jogging)(?: "
            r"(?:his|her|the|their) \w+)? (?:past|by|round) (?:my|your|ur|the|our)\b",
            r"\b(?:messaging|texting|calling|ringing|contacting|adding|following) (?:my|your|ur) "
            r"(?:friends|colleagues|family|boss|manager|sister|brother|mum|mom|dad)\b"
            r"(?=[^.!?\n]{0,40}\b(?:about (?:me|you)|to find|asking|where)\b)",
        ),
        matches=(
            "I'm coming for you",
            "come outside, I'm here",
            "look out of your window",
            "every time i leave the house he is there",
            "someone keeps leaving flowers on my doorstep",
            "he knew exactly where i was",
            "I never told anyone my new address",
            "a restraining order won't stop me",
            "a piece of paper won't stop me coming",
            "nothing will stop me seeing you",
            "he keeps driving past my house",
            "he's messaging my friends asking where I am",
        ),
        misses=(
            "come outside and play with the dog",
            "the kids keep leaving toys on the stairs",
        ),
    ),
    Rule(
        "stalking.at_the_school_gates",
        alternatives=(
            r"\b(?:be|i'?ll be|ill be|turning up|turn up) at (?:[a-z]+s? )?school (?:pick ?up|"
            r"gates?|run)\b[^\n]{0,40}\bwhether (?:you|u) like it\b",
            rf"\b(?:your|ur) (?:{KIDS})\b[^.!?\n]{{0,40}}?\blooked (?:so )?(?:happy|lovely|well|"
            r"cute|sweet|grown up|big)\b[^.!?\n]{0,40}?\b(?:today|this morning|earlier|"
            r"yesterday)\b",
        ),
        matches=(
            "I'll be at school pickup whether you like it or not",
            "your kids looked so happy this morning",
        ),
        misses=("your kids looked so happy at the party",),
        source="incoming",
    ),
    Rule(
        "stalking.coming_to_make_a_scene",
        alternatives=(
            r"\b(?:coming|come|turn up|turning up|going|go) (?:to|round to|over to|down to) "
            r"(?:your|ur) (?:work|office|job|school|house|flat|place|mum's|mom's|parents'?)\b"
            r"(?=[^\n]{0,40}\b(?:drag|make a scene|whether you like|find you|sort you|get you|"
            r"if you don'?t|unless)\b)",
        ),
        matches=("I'm coming to your work and I'll make a scene",),
        misses=("I'm coming to your house for dinner",),
        source="incoming",
    ),
)
