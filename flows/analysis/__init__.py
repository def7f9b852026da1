"""Message analysis: tactics, danger, practical questions, grey-rock replies, draft checks.

Plain Python rules (no network, no model): every finding carries the exact phrases of the
input that made it decide and a short plain explanation.
"""

from flows.analysis.danger import detect_danger
from flows.analysis.draft import check_draft
from flows.analysis.message import analyze
from flows.analysis.result import Analysis, DraftCheck, Finding

__all__ = ["Analysis", "DraftCheck", "Finding", "analyze", "check_draft", "detect_danger"]
