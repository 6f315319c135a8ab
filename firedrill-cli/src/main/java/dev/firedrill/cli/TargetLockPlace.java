package dev.firedrill.cli;

import dev.firedrill.history.AdvisoryLocks;
import dev.firedrill.history.HistoryException;
import dev.firedrill.history.StoreLocation;
import dev.firedrill.programme.lock.TargetLocks;
import java.util.Optional;

/**
 * Where {@code run} and {@code suite} take their target locks: files beside a SQLite history, or
 * advisory locks on a session of a PostgreSQL one, held open until {@link #close()} so that a run
 * that dies lets go of them with its connection.
 */
final class TargetLockPlace implements AutoCloseable {

  private final TargetLocks locks;
  private final Optional<AdvisoryLocks> session;

  private TargetLockPlace(TargetLocks locks, Optional<AdvisoryLocks> session) {
    this.locks = locks;
    this.session = session;
  }

  static TargetLockPlace open(StoreLocation store) throws HistoryException {
    if (store.file().isPresent()) {
      return new TargetLockPlace(TargetLocks.besideHistory(store.file().get()), Optional.empty());
    }
    AdvisoryLocks session = AdvisoryLocks.open(store);
    return new TargetLockPlace(TargetLocks.inPostgres(session), Optional.of(session));
  }

  TargetLocks locks() {
    return locks;
  }

  @Override
  public void close() {
    session.ifPresent(AdvisoryLocks::close);
  }
}
