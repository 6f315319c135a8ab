package dev.firedrill.engine;

import dev.firedrill.alerting.receiver.WebhookReceiver;
import java.util.List;
import java.util.Optional;

/**
 * What is known only once the drill has ended and its helpers are closed, added to the journal the
 * drill already wrote: what firedrill's webhook receiver saw, and the markers' notes (markers note
 * from their own threads, so their notes are whole only after their close).
 */
public record JournalPatch(Optional<ReceiverTally> receiver, List<String> markerNotes) {

  /** How many notifications the receiver took, and every payload it refused. */
  public record ReceiverTally(int notifications, long rejected, List<String> rejections) {

    public ReceiverTally {
      rejections = List.copyOf(rejections);
    }

    public static ReceiverTally of(WebhookReceiver receiver) {
      return new ReceiverTally(
          receiver.notifications().size(),
          receiver.rejectedCount(),
          receiver.rejections().stream()
              .map(r -> r.receivedAt() + " " + r.status() + " " + r.reason())
              .toList());
    }
  }

  public JournalPatch {
    markerNotes = List.copyOf(markerNotes);
  }

  /**
   * Adds the patch to {@code journal} and writes it to {@code file}; with nothing to add, neither,
   * so the journal without a receiver or notes stays as the drill wrote it.
   */
  public void applyTo(Journal journal, JournalFile file) {
    receiver.ifPresent(r -> journal.receiver(r.notifications(), r.rejected(), r.rejections()));
    if (!markerNotes.isEmpty()) {
      journal.markerNotes(markerNotes);
    }
    if (receiver.isPresent() || !markerNotes.isEmpty()) {
      file.write(journal);
    }
  }
}
