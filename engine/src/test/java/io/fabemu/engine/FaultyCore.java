package io.fabemu.engine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Wraps a device and misbehaves on its {@code faultAt}-th event (1-based), or when asked for its report. */
final class FaultyCore implements DeviceCore {

  enum Fault { THROW, SEND_BELOW_LOOKAHEAD, SEND_UNREGISTERED, THROW_IN_REPORT }

  /**
   * The payload {@link Fault#SEND_UNREGISTERED} sends: a test that uses it leaves this class out of
   * fabemu.wire.registrations (see {@link #withoutRegistration}).
   */
  static final Class<?> UNREGISTERED = IncRetransmitTimer.class;

  /** {@code config} with {@link #UNREGISTERED} left out of core's wire registrations. */
  static Config withoutRegistration(Config config) {
    String path = "fabemu.wire.registrations.core";
    List<String> names = new ArrayList<>(config.getStringList(path));
    names.remove(UNREGISTERED.getName());
    return ConfigFactory.parseMap(Map.of(path, names)).withFallback(config);
  }

  private final DeviceCore inner;
  private final Fault fault;
  private final int faultAt;
  private int seen;

  FaultyCore(DeviceCore inner, Fault fault, int faultAt) {
    this.inner = inner;
    this.fault = fault;
    this.faultAt = faultAt;
  }

  @Override
  public int deviceId() {
    return inner.deviceId();
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    if (++seen == faultAt) {
      if (fault == Fault.THROW) {
        throw new IllegalStateException("injected fault at " + event.timePs() + " ps");
      }
      if (fault == Fault.SEND_BELOW_LOOKAHEAD) {
        int other = inner.deviceId() == 0 ? 1 : 0;
        outbox.send(other, outbox.nowPs() + 1, GossipCore.wake(0));
      }
      if (fault == Fault.SEND_UNREGISTERED) {
        int other = inner.deviceId() == 0 ? 1 : 0;
        outbox.send(other, outbox.nowPs() + 1_000_000L, new IncRetransmitTimer(seen, seen, seen));
      }
    }
    inner.onEvent(event, outbox);
  }

  @Override
  public long progress() {
    return inner.progress();
  }

  @Override
  public DeviceReport report() {
    if (fault == Fault.THROW_IN_REPORT) {
      throw new IllegalStateException("injected report fault");
    }
    return inner.report();
  }
}
