package io.fabemu.engine;

import io.fabemu.core.sim.DeviceReport;
import java.util.List;

/**
 * What a finished run of {@link PekkoWindowEngine} yields; the same figures the plain
 * {@link io.fabemu.core.sim.WindowedEngine} gives for the same devices and events.
 *
 * @param reports         every device's report, sorted by device id
 * @param windows         global time windows run, i.e. synchronization rounds between members (empty stretches of
 *                        virtual time are skipped, not counted); with one member the plain engine's windows
 * @param events          events handled by all devices, self-events included
 * @param lastEventTimePs time of the last event any device handled: the run's virtual end (0 when none ran); it
 *                        does not depend on the windows, so it is the same on any number of members
 * @param setupSeconds    wall time (display only) from the start of a distributed run to its first window: finding
 *                        the members and each building its devices; 0 for a local run, whose devices are built
 *                        before the engine starts
 * @param traffic         what each member sent to the others, by member id (one entry, all zero, for one member)
 */
public record EngineOutcome(List<DeviceReport> reports, long windows, long events, long lastEventTimePs,
                            double setupSeconds, List<MemberTraffic> traffic) {}
