package io.fabemu.engine;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.RunBlueprint;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * The standing actor of a cluster member that takes part in distributed runs: registered with the (cluster)
 * receptionist under {@link #SERVICE_KEY}, it answers each {@link PrepareRun} by building the run's devices
 * from the scenario (every member builds the same fabric deterministically), keeping only the ones the placement
 * plan gives it, and spawning a {@link MemberScheduler} for them, whose ref goes back to the coordinator as
 * {@link Coordinator.MemberReady}. A failure to build is reported as {@link Coordinator.MemberFailed}.
 */
public final class MemberAgent {

  /** Messages a member agent accepts. */
  public interface Command extends WireMessage {}

  /** The key member agents register under; the coordinator of a distributed run looks them up with it. */
  public static final ServiceKey<Command> SERVICE_KEY = ServiceKey.create(Command.class, "fabemu-member-agent");

  /** Name of the agent's system actor. */
  public static final String NAME = "fabemu-member-agent";

  /**
   * Coordinator to agent: host member {@code memberId} of a run.
   *
   * @param runName        the coordinator's name, for the scheduler's name
   * @param memberOfDevice the placement plan: the member of every device id
   * @param lookaheadPs    the local lookahead: the member's sub-window length
   * @param windowPs       the global window length: the cross-member lookahead
   * @param scenario       what {@link DeviceBuilder} builds the devices from
   */
  public record PrepareRun(String runName, int memberId, int memberCount, int[] memberOfDevice, long lookaheadPs,
                           long windowPs, RunBlueprint scenario, ActorRef<Coordinator.Command> coordinator)
      implements Command {}

  /** Builds every device of a run (indexed by device id) from its scenario, identically on every member. */
  @FunctionalInterface
  public interface DeviceBuilder {
    DeviceCore[] build(RunBlueprint scenario);
  }

  private static final AtomicLong SCHEDULER_COUNTER = new AtomicLong();

  private MemberAgent() {}

  /** The agent's behavior: registers itself, then serves PrepareRun requests. */
  public static Behavior<Command> create(DeviceBuilder builder, DeviceActorFactory factory) {
    return Behaviors.setup(context -> {
      context.getSystem().receptionist().tell(Receptionist.register(SERVICE_KEY, context.getSelf()));
      return Behaviors.receive(Command.class)
          .onMessage(PrepareRun.class, prepare -> {
            DeviceCore[] hosted;
            try {
              DeviceCore[] all = builder.build(prepare.scenario());
              int[] plan = prepare.memberOfDevice();
              if (plan.length != all.length) {
                throw new IllegalArgumentException("the plan places " + plan.length + " devices but the scenario "
                    + "has " + all.length);
              }
              hosted = new DeviceCore[all.length];
              for (int id = 0; id < all.length; id++) {
                if (plan[id] == prepare.memberId()) {
                  hosted[id] = all[id];
                }
              }
            } catch (RuntimeException e) {
              prepare.coordinator().tell(new Coordinator.MemberFailed(prepare.memberId(),
                  "could not build its devices: " + e));
              return Behaviors.same();
            }
            ActorRef<MemberScheduler.Command> scheduler = context.spawn(
                MemberScheduler.create(prepare.memberId(), prepare.memberCount(), hosted, prepare.memberOfDevice(),
                    prepare.lookaheadPs(), prepare.windowPs(), factory, prepare.coordinator()),
                prepare.runName() + "-member-" + prepare.memberId() + "-" + SCHEDULER_COUNTER.incrementAndGet());
            prepare.coordinator().tell(new Coordinator.MemberReady(prepare.memberId(), scheduler));
            return Behaviors.same();
          })
          .build();
    });
  }

  /** Starts the agent of {@code system} (once per system) as a system actor named {@link #NAME}. */
  public static ActorRef<Command> start(ActorSystem<?> system, DeviceBuilder builder, DeviceActorFactory factory) {
    return system.systemActorOf(create(builder, factory), NAME, Props.empty());
  }
}
