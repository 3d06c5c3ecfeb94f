"""The SS2 wheel driver's parser (docs/protocols/wheel-ss2.md): the maker's example, every
exception the maker lists, the spin counter's wrap, and bytes that mean nothing."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from hardware.events import BadInput, BadKind
from hardware.simulators.wheel import WheelSimulator, maker_example
from hardware.wheel import events as wev
from hardware.wheel.ss2 import MAX_LINE, SS2Parser, answer

MAKER = (b"*X;2;011;23;0;154;0\r\n*X;2;011;23;0;042;0\r\n*X;3;011;23;0;170;1\r\n"
         b"*X;4;011;23;0;168;1\r\n25\r\n*X;5;011;25;0;165;1\r\n*X;1;011;25;0;165;1\r\n")


def meaning(events):
    """The events other than the raw status reports."""
    return [e for e in events if not isinstance(e, wev.WheelStatus)]


def test_the_simulator_reproduces_the_makers_example_byte_for_byte():
    assert maker_example() == MAKER


def test_the_makers_example_game():
    events = SS2Parser().feed(MAKER)
    assert [e for e in events if isinstance(e, wev.WheelStatus)][2] == wev.WheelStatus(
        device="WHEEL", state=3, spin=11, number="23", warning=0, rpm_tenths=170, direction=1)
    assert meaning(events) == [
        wev.BettingOpened(device="WHEEL", spin=11, games=1),
        wev.BallInRim(device="WHEEL", spin=11, direction="anticlockwise"),
        wev.BetsClosed(device="WHEEL", spin=11),
        wev.WinningNumber(device="WHEEL", spin=11, number="25", direction="anticlockwise"),
    ]  # the number once: from the plain line; the state-5 report agrees


def test_byte_by_byte_gives_the_same_events():
    p = SS2Parser()
    events = [e for b in MAKER for e in p.feed(bytes([b]))]
    assert events == SS2Parser().feed(MAKER)


def test_colons_and_lone_cr_or_lf_are_read():
    data = MAKER.replace(b";", b":").replace(b"\r\n", b"\n")
    assert meaning(SS2Parser().feed(data)) == meaning(SS2Parser().feed(MAKER))


def test_a_state_5_report_that_disagrees_with_the_number_line_is_refused():
    p = SS2Parser()
    events = p.feed(MAKER.replace(b"*X;5;011;25", b"*X;5;011;26"))
    bad = [e for e in events if isinstance(e, BadInput)]
    assert len(bad) == 1 and "26 after 25" in bad[0].reason
    assert [e.number for e in events if isinstance(e, wev.WinningNumber)] == ["25"]


def test_a_result_with_no_plain_line_comes_from_state_5():
    p = SS2Parser()
    events = p.feed(MAKER.replace(b"25\r\n", b""))
    assert [e.number for e in events if isinstance(e, wev.WinningNumber)] == ["25"]


def test_a_double_zero_result():
    sim = WheelSimulator(pockets=(*(str(n) for n in range(37)), "00"))
    events = SS2Parser().feed(b"".join(sim.game("00")))
    assert [e.number for e in events if isinstance(e, wev.WinningNumber)] == ["00"]


def test_miss_spin_is_a_void_answered_with_R():
    sim = WheelSimulator()
    events = meaning(SS2Parser().feed(b"".join(sim.game("5", faults=("miss_spin",)))))
    miss = [e for e in events if isinstance(e, wev.MissSpin)]
    assert miss == [wev.MissSpin(device="WHEEL", spin=11)]  # once, though reported twice
    assert answer(miss[0]) == b"*R\r\n"
    assert not any(isinstance(e, wev.WinningNumber) for e in events)


def test_no_ball_is_ignored_for_9_reports_and_told_at_the_10th():
    sim = WheelSimulator()
    p = SS2Parser()
    p.feed(b"".join(sim.game("5")[:6]))  # to state 4
    nine = b"".join(sim.status(4, warning=1) for _ in range(9))
    assert not any(isinstance(e, wev.NoBall) for e in p.feed(nine))
    assert meaning(p.feed(sim.status(4, warning=1))) == [
        wev.NoBall(device="WHEEL", spin=11, reports=10)]
    assert meaning(p.feed(sim.status(4, warning=1))) == []  # once


def test_no_ball_count_starts_again_when_the_ball_is_seen():
    sim = WheelSimulator()
    p = SS2Parser()
    p.feed(b"".join(sim.game("5")[:6]))
    flicker = (sim.status(4, warning=1) * 9 + sim.status(4)) * 3
    assert not any(isinstance(e, wev.NoBall) for e in p.feed(flicker))


def test_a_failed_launch_is_ignored_for_6_reports():
    sim = WheelSimulator()
    p = SS2Parser()
    p.feed(sim.game("5")[0])  # state 2
    six = b"".join(sim.status(3, warning=8) for _ in range(6))
    assert not any(isinstance(e, wev.LaunchFailed) for e in p.feed(six))
    assert [e for e in meaning(p.feed(sim.status(3, warning=8)))
            if isinstance(e, wev.LaunchFailed)] == [
        wev.LaunchFailed(device="WHEEL", spin=11, reports=7)]


def test_a_warning_A_is_a_failed_launch_and_the_ball_with_the_wheel():
    p = SS2Parser()
    p.feed(b"*X;2;011;23;0;154;0\r\n")
    events = meaning(p.feed(b"*X;3;011;23;A;170;1\r\n"))
    assert wev.MissSpin(device="WHEEL", spin=11) in events


def test_component_fault_and_self_test_codes():
    sim = WheelSimulator()
    events = meaning(SS2Parser().feed(b"".join(sim.game("7", faults=("component_fault",)))))
    assert wev.ComponentFault(device="WHEEL", spin=11) in events
    codes = meaning(SS2Parser().feed(b"*F 0\r\n*F 22\r\n*F 55\r\n*F BUSY\r\n"))
    assert codes == [wev.SelfTestCode(device="WHEEL", code=0, text="no error"),
                     wev.SelfTestCode(device="WHEEL", code=22, text="sensor 1 stuck off"),
                     wev.SelfTestCode(device="WHEEL", code=55, text="unknown code"),
                     wev.WheelReply(device="WHEEL", command="F", text="BUSY")]


def test_a_drop_to_6_in_play_asks_for_recovery_once_a_second_up_to_10_times():
    sim = WheelSimulator()
    p = SS2Parser()
    events = meaning(p.feed(b"".join(sim.game("7", faults=("drop_to_6",)))))
    assert wev.WheelClosed(device="WHEEL", spin=11, during_play=True) in events
    tries = [e for e in events if isinstance(e, wev.WheelRecovering)]
    assert [t.attempt for t in tries] == [1, 2, 3]  # six reports in state 6: every second one
    more = meaning(p.feed(sim.status(6) * 30))
    assert [t.attempt for t in more] == [4, 5, 6, 7, 8, 9, 10]  # then no more
    assert answer(more[0]) == b"*P 1\r\n"
    # a normal close after a game is not a fault
    p2 = SS2Parser()
    p2.feed(b"".join(WheelSimulator().game("1")))
    assert meaning(p2.feed(b"*X;6;011; 1;0;000;0\r\n")) == [
        wev.WheelClosed(device="WHEEL", spin=11, during_play=False)]


def test_the_spin_counter_wraps_and_games_keep_counting():
    sim = WheelSimulator(spin=254)
    p = SS2Parser()
    opened = [e for _ in range(4) for e in p.feed(b"".join(sim.game()))
              if isinstance(e, wev.BettingOpened)]
    assert [(e.spin, e.games) for e in opened] == [(255, 1), (256, 2), (1, 3), (2, 4)]


def test_a_re_spin_after_a_void_is_the_same_game():
    sim = WheelSimulator()
    p = SS2Parser()
    p.feed(b"".join(sim.game("5", faults=("miss_spin",))))
    sim.spin -= 1  # the wheel re-spins the void game under the same counter
    events = meaning(p.feed(b"".join(sim.game("9"))))
    assert events[0] == wev.BettingOpened(device="WHEEL", spin=11, games=1)
    assert wev.WinningNumber(device="WHEEL", spin=11, number="9",
                             direction="clockwise") in events


def test_replies():
    events = SS2Parser().feed(b"*K CAM\r\n*R OK\r\n*S 2.07\r\n*w 31.42 71\r\n*w x y\r\n")
    assert events[:4] == [wev.WheelReply(device="WHEEL", command="K", text="CAM"),
                          wev.WheelReply(device="WHEEL", command="R", text="OK"),
                          wev.WheelReply(device="WHEEL", command="S", text="2.07"),
                          wev.WheelStatistic(device="WHEEL", chi2="31.42", percent="71")]
    assert isinstance(events[4], BadInput) and events[4].kind is BadKind.BAD_VALUE


def test_noise_truncation_and_overlong_lines_are_counted():
    p = SS2Parser()
    events = p.feed(b"\x00\xffjunk\r\n*X;2;011\r\n" + b"*" + b"9" * 500 + b"\r\n"
                    + b"*X;7;011;23;0;154;0\r\n42\r\n*X;2;011;23;0;154;0\r\n*X;3;01")
    kinds = [e.kind for e in events if isinstance(e, BadInput)]
    assert kinds == [BadKind.NOISE, BadKind.BAD_FIELDS, BadKind.OVERLONG, BadKind.BAD_VALUE,
                     BadKind.NOISE]
    assert p.stats.bad_total == 5 and p.stats.frames == 1
    assert [type(e) for e in p.reset()] == [BadInput]  # the cut-off packet
    assert p.pending == 0


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_never_raise_and_the_buffer_stays_bounded(data):
    p = SS2Parser()
    for chunk in (data[: len(data) // 2], data[len(data) // 2:]):
        p.feed(chunk)
        assert p.pending <= MAX_LINE + 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(MAKER)), st.binary(min_size=1, max_size=20))
def test_noise_spliced_into_a_game_never_raises(at, noise):
    p = SS2Parser()
    events = p.feed(MAKER[:at] + noise + MAKER[at:])
    numbers = [e.number for e in events if isinstance(e, wev.WinningNumber)]
    assert len(numbers) <= 2 and all(n in {str(k) for k in range(37)} | {"00"}
                                     for n in numbers)
