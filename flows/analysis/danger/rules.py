"""Every danger rule, and the order they run in.

The rules live by kind in the modules imported here.  ``ORDER`` lists each rule once,
by kind; it decides one thing only: when two rules of a kind match at the same place,
the phrase of the earlier one is listed first in the finding.  Keep it stable so a
finding reads the same from one release to the next; a new rule goes where it reads
best (usually last of its kind).
"""

from __future__ import annotations

import re

from flows.analysis.danger import (
    children_harmed,
    children_taken,
    self_harm_means,
    self_harm_signs,
    self_harm_them,
    self_harm_words,
    stalking_access,
    stalking_knowing,
    stalking_presence,
    violence_acts,
    violence_threats,
    violence_veiled,
    weapons,
)
from flows.analysis.danger.rule import Rule, RuleKind
from flows.analysis.matching import compile_rule

ORDER: dict[RuleKind, tuple[str, ...]] = {
    "violence": (
        "violence.hurt_someone",
        "violence.will_harm",
        "violence.abuser_hurt",
        "violence.manhandled",
        "violence.injury_given",
        "violence.outcome_named",
        "violence.cant_have_you",
        "violence.dead_man",
        "violence.watch_your_back",
        "violence.thrown_at",
        "violence.wall_punched",
        "violence.burn_down",
        "violence.put_in_hospital",
        "violence.afraid_of_them",
        "violence.threatened",
        "violence.weapon_pointed_at",
        "violence.weapon_at_body",
        "violence.children_hurt",
        "violence.accident_foretold",
        "violence.quoted_threat",
        "violence.child_hit",
        "violence.assault_told",
        "violence.see_what_i_do",
        "violence.children_handled_roughly",
        "violence.said_sideways",
        "violence.violent_person",
        "violence.unsafe_at_home",
        "violence.run_over_or_burnt",
        "violence.pushed_or_marked",
        "violence.door_kicked_in",
        "violence.sorry_for_hurting",
        "violence.capable_of",
        "violence.dead_when",
        "violence.child_marked",
        "violence.weapon_left_in_things",
    ),
    "stalking": (
        "stalking.knows_where",
        "stalking.will_wait_outside",
        "stalking.turned_up",
        "stalking.waiting_near",
        "stalking.outside",
        "stalking.followed_or_tracked",
        "stalking.hacked",
        "stalking.saw_you",
        "stalking.drove_past",
        "stalking.will_find_you",
        "stalking.new_numbers",
        "stalking.photos_of_home",
        "stalking.broke_in",
        "stalking.coming_round",
        "stalking.knows_what_you_did",
        "stalking.knows_your_life",
        "stalking.access",
        "stalking.everywhere",
        "stalking.asking_where",
        "stalking.fake_accounts",
        "stalking.who_came",
        "stalking.wont_be_stopped",
        "stalking.saw_you_today",
        "stalking.knows_your_shifts",
        "stalking.noticed_your_hair",
        "stalking.somehow_has_number",
        "stalking.asking_about_you",
        "stalking.eyes_everywhere",
        "stalking.at_the_school_gates",
        "stalking.turned_up_at_family",
        "stalking.at_your_road",
        "stalking.coming_to_make_a_scene",
    ),
    "weapon": (
        "weapon.has_one",
        "weapon.pointed_at",
        "weapon.at_body",
        "weapon.shoot_or_stab",
        "weapon.what_i_keep",
        "weapon.ready",
        "weapon.kept_somewhere",
        "weapon.readied_for_you",
        "weapon.brought_round",
        "weapon.still_there_or_shown",
        "weapon.left_in_things",
    ),
    "child_safety": (
        "child_safety.never_see_them",
        "child_safety.take_and_disappear",
        "child_safety.threat_to_take",
        "child_safety.not_coming_back",
        "child_safety.kept_away",
        "child_safety.hurt",
        "child_safety.left_alone",
        "child_safety.child_hit",
        "child_safety.said_sideways",
        "child_safety.handled_roughly",
        "child_safety.drunk_driving",
        "child_safety.locked_in",
        "child_safety.held_over_you",
        "child_safety.will_keep_them",
        "child_safety.coming_to_take",
        "child_safety.marks_and_school",
    ),
    "self_harm": (
        "self_harm.kill_myself",
        "self_harm.suicide",
        "self_harm.want_to_die",
        "self_harm.wish_dead",
        "self_harm.no_point",
        "self_harm.overdose",
        "self_harm.means",
        "self_harm.pills",
        "self_harm.cutting",
        "self_harm.named",
        "self_harm.at_the_edge",
        "self_harm.looking_up_how",
        "self_harm.notes_and_cuts",
        "self_harm.indirect",
        "self_harm.not_being_here",
        "self_harm.going_away",
        "self_harm.they_kill_themselves",
        "self_harm.heights_and_medicines",
        "self_harm.preparing",
        "self_harm.plan_or_burden",
        "self_harm.goodbye",
        "self_harm.they_sent_a_photo",
        "self_harm.means_in_own_words",
        "self_harm.thinking_of_dying",
        "self_harm.crisis_words",
        "self_harm.took_pills",
        "self_harm.they_said_goodbye",
        "self_harm.giving_up",
        "self_harm.car_or_train",
        "self_harm.close_to_it",
        "self_harm.finished_me_off",
    ),
}


def _in_order(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    by_id = {rule.id: rule for rule in rules}
    if len(by_id) != len(rules):
        raise ValueError("two danger rules have the same id")
    order = [rule_id for ids in ORDER.values() for rule_id in ids]
    if sorted(order) != sorted(by_id):
        unlisted = sorted(set(by_id) - set(order))
        unknown = sorted(set(order) - set(by_id))
        raise ValueError(f"ORDER must list each rule once: unlisted {unlisted}, unknown {unknown}")
    for kind, ids in ORDER.items():
        if any(by_id[rule_id].kind != kind for rule_id in ids):
            raise ValueError(f"ORDER[{kind!r}] lists a rule of another kind")
    return tuple(by_id[rule_id] for rule_id in order)


RULES: tuple[Rule, ...] = _in_order(
    (
        *violence_acts.RULES,
        *violence_threats.RULES,
        *violence_veiled.RULES,
        *weapons.RULES,
        *stalking_presence.RULES,
        *stalking_knowing.RULES,
        *stalking_access.RULES,
        *children_taken.RULES,
        *children_harmed.RULES,
        *self_harm_words.RULES,
        *self_harm_means.RULES,
        *self_harm_signs.RULES,
        *self_harm_them.RULES,
    )
)
#: Each rule with its alternatives compiled (see ``matching.compile_rule``).
COMPILED: tuple[tuple[Rule, tuple[re.Pattern[str], ...]], ...] = tuple(
    (rule, tuple(compile_rule(alt) for alt in rule.alternatives)) for rule in RULES
)
