package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.engine.EngineMemberLostException;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A member whose actor system stops mid-run (it leaves the cluster) fails the run within 15 s with one
 * {@link MemberLostException} naming the member and the last completed virtual time, carrying the cases every rank
 * finished before, marked incomplete; never a hang or a partial result presented as complete.
 */
class MemberLossTest {
  private static final Config CONFIG = ConfigFactory.parseString("pekko.actor.serialize-creators = off");

  private static List<EmbeddedCluster> members;

  @BeforeAll
  static void startMembers() {
    members = TestMembers.start(CONFIG, 3);
  }

  @AfterAll
  static void stopMembers() {
    TestMembers.stop(members);
  }

  /**
   * Four quick small cases, then a long one: a loss during the long one leaves four finished cases. The long one
   * must outlast a member's shutdown (leaving the cluster takes about a second) with room to spare; it is cut
   * short, so its length costs nothing: 64 KiB took only about 1.2 s on three in-JVM members once the windows were
   * global, and 256 KiB once finished before the loss after the members' reports got cheaper (2026-11-21).
   */
  static ScenarioSpec smallCasesThenALongOne(String name) {
    return allreduceOfSizes(name, "4 B, 8 B, 16 B, 32 B, 1 MiB");
  }

  /** The same scenario without its last (long) case: the same first cases, cheap to run on one member. */
  static ScenarioSpec smallCasesOnly(String name) {
    return allreduceOfSizes(name, "4 B, 8 B, 16 B, 32 B");
  }

  private static ScenarioSpec allreduceOfSizes(String name, String sizes) {
    return ScenarioLoader.parse("""
        name = %s
        seed = 5
        topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
        workload {
          collective = allreduce, algorithms = [ring]
          sizes = [%s], iterations = 20, warmup = 0, ppn = 2
        }
        """.formatted(name, sizes), name + ".conf").spec();
  }

  /** Operations every rank completes in the first {@code cases} cases, over all ranks. */
  static long operationsOfCases(ScenarioSpec spec, int cases) {
    long ranks = (long) spec.topology().hosts() * spec.workload().ppn();
    return ranks * cases * (spec.workload().warmup() + spec.workload().iterations());
  }

  @Test
  void shouldStopWithinFifteenSecondsWithTheFinishedCasesMarkedIncompleteWhenAMemberStopsMidRun()
      throws Exception {
    ScenarioSpec spec = smallCasesThenALongOne("member-loss");
    RunResult reference = ScenarioRunner.runDistributed(members.get(0), smallCasesOnly("member-loss"), 1,
        Duration.ofSeconds(20), (d, t) -> {});
    assertThat(reference.complete()).isTrue();
    long afterSmallCases = operationsOfCases(spec, 4);

    EmbeddedCluster victim = members.get(2);
    String victimAddress = victim.address().getHost().orElseThrow() + ":" + victim.address().getPort().orElseThrow();
    CompletableFuture<Long> stoppedAtNanos = new CompletableFuture<>();
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> ScenarioRunner.runDistributed(
        members.get(0), spec, 3, Duration.ofSeconds(20), (done, timePs) -> {
          // Mid-run, in the long last case. Terminate asynchronously, never on the coordinator's thread.
          if (done > afterSmallCases && stoppedAtNanos.complete(System.nanoTime())) {
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

    assertThat(failure).as("the run must fail, not complete").isInstanceOf(MemberLostException.class);
    assertThat(tookMs).isLessThan(15_000);
    String lostVictim = "lost member [0-2] \\(" + Pattern.quote(victimAddress) + "\\)";  // ids follow addresses
    assertThat(failure.getMessage()).matches(lostVictim + " at virtual time \\d+ .*")
        .endsWith(" ps (last completed window); the run is incomplete");
    assertThat(failure.getCause()).isInstanceOf(EngineMemberLostException.class);

    RunResult partial = ((MemberLostException) failure).partialResult();
    assertThat(partial.complete()).isFalse();
    assertThat(partial.incompleteReason()).containsPattern(lostVictim)
        .doesNotContain("stalled");
    assertThat(partial.cases()).as("the four small cases finished before the loss").hasSize(4);
    assertThat(partial.cases()).isEqualTo(reference.cases());
    assertThat(partial.wrongElements()).isZero();
    long completedPs = ((EngineMemberLostException) failure.getCause()).completedThroughPs();
    assertThat(failure.getMessage()).contains("at virtual time " + completedPs + " ps");
    assertThat(partial.virtualEndPs()).isEqualTo(completedPs).isGreaterThan(reference.virtualEndPs());
  }
}
