package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.result.RunResult;
import io.fabemu.core.spec.ScenarioSpec;
import io.fabemu.engine.EngineFailedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A member that goes away mid-run fails the run with a clear error, never a hang or a partial result. */
class MemberLossTest {
  private static final Config CONFIG = ConfigFactory.parseString("pekko.actor.serialize-creators = off");

  private static List<EmbeddedCluster> members;

  @BeforeAll
  static void startMembers() {
    EmbeddedCluster first = EmbeddedCluster.start(CONFIG);
    members = List.of(first, EmbeddedCluster.join(CONFIG, first.address()),
        EmbeddedCluster.join(CONFIG, first.address()));
    members.forEach(ScenarioRunner::serveAsMember);
  }

  @AfterAll
  static void stopMembers() {
    for (int i = members.size() - 1; i >= 0; i--) {
      members.get(i).close();
    }
  }

  @Test
  void shouldFailNamingTheLostMemberWithin15SecondsWhenAMemberStopsMidRun() throws Exception {
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = member-loss
        topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
        workload { collective = allreduce, algorithms = [ring], sizes = [64 KiB], iterations = 400, ppn = 2 }
        """, "member-loss.conf").spec();
    EmbeddedCluster victim = members.get(2);
    String victimAddress = victim.address().getHost().orElseThrow() + ":" + victim.address().getPort().orElseThrow();
    CompletableFuture<Long> stoppedAtNanos = new CompletableFuture<>();
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> ScenarioRunner.runDistributed(
        members.get(0), spec, 3, Duration.ofSeconds(20), (done, timePs) -> {
          // Mid-run: some operations done. Terminate asynchronously, never on the coordinator's thread.
          if (done > 0 && stoppedAtNanos.complete(System.nanoTime())) {
            victim.system().terminate();
          }
        }));

    long stoppedAt = stoppedAtNanos.get(60, TimeUnit.SECONDS);
    Throwable failure = null;
    try {
      run.get(15, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      failure = e.getCause();
    }
    long tookMs = (System.nanoTime() - stoppedAt) / 1_000_000;

    assertThat(failure).as("the run must fail, not complete").isInstanceOf(EngineFailedException.class);
    assertThat(tookMs).isLessThan(15_000);
    assertThat(failure.getMessage()).contains("lost member").contains(victimAddress)
        .contains("last completed window ended at virtual time");
  }
}
