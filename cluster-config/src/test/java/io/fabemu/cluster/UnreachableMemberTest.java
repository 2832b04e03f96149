package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.engine.EngineMemberLostException;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.pekko.actor.Address;
import org.apache.pekko.remote.RARP;
import org.apache.pekko.remote.transport.ThrottlerTransportAdapter$;
import org.apache.pekko.remote.transport.ThrottlerTransportAdapter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A member cut off abruptly, the way a SIGKILLed process or a pulled cable looks to the others: no leave, no stop,
 * its schedulers still "alive", and no downing provider to remove it. Only the cluster's failure detector can
 * notice; the run must still stop within 15 s with a {@link MemberLostException} and the finished cases.
 *
 * <p>In one JVM, Artery's test mode stands in for the kill: every other member blackholes the victim in both
 * directions (messages dropped, heartbeats included), and lets it through again before shutting down.
 */
class UnreachableMemberTest {
  private static final Config CONFIG = ConfigFactory.parseString("""
      pekko.actor.serialize-creators = off
      pekko.remote.artery.advanced.test-mode = on
      """);

  private static List<EmbeddedCluster> members;

  @BeforeAll
  static void startMembers() {
    members = TestMembers.start(CONFIG, 3);
  }

  @AfterAll
  static void stopMembers() {
    TestMembers.stop(members);
  }

  private static void cutOff(EmbeddedCluster victim, boolean cut) {
    Address address = victim.address();
    for (EmbeddedCluster member : members) {
      if (member == victim) {
        continue;
      }
      RARP rarp = (RARP) RARP.get(member.system().classicSystem());
      ThrottlerTransportAdapter$ api = ThrottlerTransportAdapter$.MODULE$;
      ThrottlerTransportAdapter.ThrottleMode mode = cut ? api.blackholeThrottleMode() : api.unthrottledThrottleMode();
      rarp.provider().transport().managementCommand(new ThrottlerTransportAdapter.SetThrottle(address,
          api.bothDirection(), mode));
    }
  }

  @Test
  void shouldStopWithinFifteenSecondsWhenOnlyTheFailureDetectorCanSeeTheLoss() throws Exception {
    ScenarioSpec spec = MemberLossTest.smallCasesThenALongOne("unreachable");
    RunResult reference = ScenarioRunner.runDistributed(members.get(0), MemberLossTest.smallCasesOnly("unreachable"),
        1, Duration.ofSeconds(20), (d, t) -> {});
    long afterSmallCases = MemberLossTest.operationsOfCases(spec, 4);

    EmbeddedCluster victim = members.get(1);
    String victimAddress = victim.address().getHost().orElseThrow() + ":" + victim.address().getPort().orElseThrow();
    CompletableFuture<Long> cutAtNanos = new CompletableFuture<>();
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> ScenarioRunner.runDistributed(
        members.get(0), spec, 3, Duration.ofSeconds(20), (done, timePs) -> {
          if (done > afterSmallCases && cutAtNanos.complete(System.nanoTime())) {
            cutOff(victim, true);
          }
        }));

    Throwable failure = null;
    long tookMs;
    try {
      long cutAt = cutAtNanos.get(60, TimeUnit.SECONDS);
      try {
        run.get(15, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        failure = e.getCause();
      }
      tookMs = (System.nanoTime() - cutAt) / 1_000_000;
    } finally {
      cutOff(victim, false);
    }

    assertThat(failure).as("the run must fail, not complete or hang").isInstanceOf(MemberLostException.class);
    assertThat(tookMs).isLessThan(15_000);
    String lostVictim = "lost member [0-2] \\(" + Pattern.quote(victimAddress) + "\\)";  // ids follow addresses
    assertThat(failure.getMessage()).matches(lostVictim + " at virtual time \\d+ .*")
        .endsWith("(last completed window); the run is incomplete");
    assertThat(failure.getCause()).isInstanceOf(EngineMemberLostException.class);
    assertThat(failure.getCause().getMessage()).contains("unreachable");
    RunResult partial = ((MemberLostException) failure).partialResult();
    assertThat(partial.complete()).isFalse();
    assertThat(partial.incompleteReason()).containsPattern(lostVictim);
    assertThat(partial.cases()).hasSize(4).isEqualTo(reference.cases());
  }
}
