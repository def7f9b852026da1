"""Someone else's self-harm, whoever writes it: "he said he'd kill himself"."""

from __future__ import annotations

from flows.analysis.danger.rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        "self_harm.they_kill_themselves",
        alternatives=(
            r"\b(?:kill|killing|hurt|hurting|harm|harming|cut|cutting) (?:himself|herself|"
            r"themselves)\b",
            r"\b(?:end|take|ending|taking) (?:his|her|their) (?:own )?life\b",
            r"\bdo(?:ing)? (?:himself|herself|themselves) in\b",
        ),
        matches=(
            "she says she'll kill herself",
            "he threatened to take his own life",
            "he'll do himself in",
        ),
        misses=(
            "he'd never hurt himself",
            "she hurt herself playing netball",
        ),
        negatable=True,
        person="third",
    ),
    Rule(
        "self_harm.they_sent_a_photo",
        alternatives=(
            r"\b(?:he|she|they|my ex|his|her)\b[^.!?\n]{0,30}?\b(?:sent|posted|showed) (?:me |"
            r"us )?(?:a )?(?:photo|picture|pic|video|selfie|snap) of (?:a|the|his|her|some) "
            r"(?:rope|noose|pills|tablets|razor|blade|cuts|wrists?)\b",
        ),
        matches=("he sent me a photo of his wrists",),
        misses=("he sent a photo of the new puppy",),
        person="third",
    ),
    Rule(
        "self_harm.they_said_goodbye",
        alternatives=(
            r"\b(?:he|she|they)\b[^.!?\n]{0,20}\b(?:posted|sent|wrote|left) (?:a |me a |us a "
            r")?(?:goodbye|farewell|suicide) (?:message|note|letter|post|text|video)\b"
            r"(?![^.!?\n]{0,30}\b(?:job|colleagues|team|work|linkedin|retire\w*|leaving do)\b)",
        ),
        matches=("she posted a goodbye message",),
        misses=("she posted a goodbye message to her team at work",),
        person="third",
    ),
)
