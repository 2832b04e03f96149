package io.fabemu.engine;

import io.fabemu.core.engine.DeviceReport;
import java.util.List;

/**
 * What a finished run of {@link PekkoWindowEngine} yields; the same figures the plain
 * {@link io.fabemu.core.engine.WindowedEngine} gives for the same devices and events.
 *
 * @param reports           every device's report, sorted by device id
 * @param windows           time windows run (empty stretches of virtual time are skipped, not counted)
 * @param events            events handled by all devices, self-events included
 * @param lastWindowStartPs start of the last window: the virtual time the run reached (0 when none ran)
 */
public record EngineOutcome(List<DeviceReport> reports, long windows, long events, long lastWindowStartPs) {}
