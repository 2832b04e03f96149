package io.fabemu.core.fault;

import java.util.List;

/**
 * What the management node saw of one down or up event: when it was noticed and when the network was routed around
 * it (or back over it).
 *
 * @param eventId           the event
 * @param detectedPs        when a neighbour noticed it (the first notice's detection time); -1 when none did (it was
 *                          over before its neighbours missed enough heartbeats)
 * @param reporterDevice    the device whose notice came first; -1 when none came
 * @param rerouteCompletePs when the last routing update it caused was in place (its detection time plus the
 *                          management network and update times); -1 when it was not detected
 * @param devicesUpdated    devices whose routes it changed, each sent one update
 * @param detours           on a router network, every detour in place once it was routed around (or back over):
 *                          {@code "host3->host40 via host11"}, by source then destination; empty elsewhere
 */
public record FaultRecord(int eventId, long detectedPs, int reporterDevice, long rerouteCompletePs,
                          int devicesUpdated, List<String> detours) {
  public FaultRecord {
    detours = List.copyOf(detours);
  }

  /** A record without detours (switched and direct fabrics, or an event not noticed). */
  public FaultRecord(int eventId, long detectedPs, int reporterDevice, long rerouteCompletePs, int devicesUpdated) {
    this(eventId, detectedPs, reporterDevice, rerouteCompletePs, devicesUpdated, List.of());
  }
}
