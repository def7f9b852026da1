"""Message analysis: tactics, danger, practical questions, grey-rock replies, draft checks.

Plain Python, offline (no network): rules plus a small shipped word model for danger.
Every finding carries the exact phrases of the input that made it decide and a short
plain explanation.
"""

from flows.analysis.danger import DangerCheck, check_danger, detect_danger
from flows.analysis.draft import check_draft
from flows.analysis.message import analyze
from flows.analysis.result import Analysis, DraftCheck, Finding

__all__ = [
    "Analysis",
    "DangerCheck",
    "DraftCheck",
    "Finding",
    "analyze",
    "check_danger",
    "check_draft",
    "detect_danger",
]
