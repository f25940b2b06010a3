"""armlab-grade's workers: what they log at close."""

import logging

from armlab.autograde.batch import _quiet_heartbeat_at_close


def test_a_closing_workers_heartbeat_traceback_is_dropped_and_other_errors_are_kept(caplog):
    log = logging.getLogger("distributed.worker")
    before = list(log.filters)
    try:
        _quiet_heartbeat_at_close()
        with caplog.at_level(logging.ERROR, logger="distributed.worker"):
            log.error("Failed to communicate with scheduler during heartbeat.")
            log.error("Compute Failed")
        assert [r.getMessage() for r in caplog.records] == ["Compute Failed"]
    finally:
        log.filters[:] = before
