"""The commands' progress off a terminal: timestamped lines, at the start and end of a stage
and at most every ``every`` seconds between; ``quiet`` prints nothing."""

from __future__ import annotations

import io
import re

from buckshot.progress import CommandProgress

STAMP = r"\[\d\d:\d\d:\d\d \+\d+s\]"


def test_plain_lines_name_the_stage_and_the_count() -> None:
    stream = io.StringIO()
    with CommandProgress("simulate", stream=stream, every=3600) as progress:
        for done in range(1, 6):
            progress.update(done, 5, "games")
        progress.say("verification 1/2: proofs")
    lines = stream.getvalue().splitlines()
    # the first count, then (within the hour) only the last one, then the step told
    assert [re.sub(STAMP, "T", line) for line in lines] == [
        "T simulate games: 1/5",
        "T simulate games: 5/5",
        "T simulate: verification 1/2: proofs",
    ]
    assert progress.done_so_far() == "games 5/5"


def test_quiet_prints_nothing() -> None:
    stream = io.StringIO()
    with CommandProgress("simulate", quiet=True, stream=stream) as progress:
        progress.update(1, 2, "games")
        progress.say("a step")
    assert stream.getvalue() == ""
