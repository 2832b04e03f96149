package io.fabemu.core.sim;

import io.fabemu.core.protocol.Payload;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Outbox} of unit tests that drive a device core, or a part of one, by hand: it stands at the virtual
 * time the test sets ({@link #at}) and records every event sent, in order, as a {@link Sent}. A test reads what was
 * sent ({@link #sent}), what was sent from some index on ({@link #since}), takes it and starts afresh ({@link #take},
 * {@link #clear}), or keeps one payload type ({@link #ofType}, {@link #payloads}).
 *
 * <p>It checks none of the outbox's rules (nothing in the past, the lookahead to other devices): a test that needs
 * them drives the core through a {@link DeviceRunner}. Shared by the tests of core and, through core's test-jar, of
 * the device modules.
 */
public final class RecordingOutbox implements Outbox {

  /**
   * One event a device sent.
   *
   * @param targetDevice the device it is for
   * @param timePs       when it is due
   * @param payload      what it carries
   */
  public record Sent(int targetDevice, long timePs, Payload payload) {}

  private final List<Sent> sent = new ArrayList<>();
  /** The virtual time {@link #nowPs} answers. */
  private long nowPs;

  /** An outbox at time 0. */
  public RecordingOutbox() {
    this(0L);
  }

  /** An outbox at {@code nowPs}. */
  public RecordingOutbox(long nowPs) {
    this.nowPs = nowPs;
  }

  /** Moves the outbox to {@code timePs} (the time of the next event the test hands over); returns it. */
  public RecordingOutbox at(long timePs) {
    nowPs = timePs;
    return this;
  }

  @Override
  public long nowPs() {
    return nowPs;
  }

  @Override
  public void send(int targetDevice, long timePs, Payload payload) {
    sent.add(new Sent(targetDevice, timePs, payload));
  }

  /** Everything sent so far (since the last {@link #take} or {@link #clear}), in order; a copy. */
  public List<Sent> sent() {
    return List.copyOf(sent);
  }

  /** What was sent from index {@code from} of {@link #sent} on. */
  public List<Sent> since(int from) {
    return List.copyOf(sent.subList(from, sent.size()));
  }

  /** Everything sent so far, in order; the outbox then starts afresh. */
  public List<Sent> take() {
    List<Sent> out = List.copyOf(sent);
    sent.clear();
    return out;
  }

  /** Forgets everything sent so far. */
  public void clear() {
    sent.clear();
  }

  /** What was sent with a payload of {@code type} (or a subtype), in order. */
  public List<Sent> ofType(Class<? extends Payload> type) {
    return ofType(sent, type);
  }

  /** The events of {@code sent} with a payload of {@code type} (or a subtype), in order. */
  public static List<Sent> ofType(List<Sent> sent, Class<? extends Payload> type) {
    List<Sent> out = new ArrayList<>();
    for (Sent s : sent) {
      if (type.isInstance(s.payload())) out.add(s);
    }
    return List.copyOf(out);
  }

  /** The payloads of {@code type} (or a subtype) that were sent, in order. */
  public <T extends Payload> List<T> payloads(Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Sent s : sent) {
      if (type.isInstance(s.payload())) out.add(type.cast(s.payload()));
    }
    return List.copyOf(out);
  }
}
