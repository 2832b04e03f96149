package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.RunResult;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Scenarios on the embedded cluster, every message through the Kryo wire serializer. */
class ScenarioRunnerTest {
  private static EmbeddedCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = EmbeddedCluster.start(ConfigFactory.parseString("""
        pekko.actor.serialize-messages = on
        pekko.actor.serialize-creators = off
        """));
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  private static ScenarioSpec scenario(String workload) {
    return ScenarioLoader.parse("""
        name = runner-test
        seed = 3
        topology { kind = leaf-spine, hosts = 10, hosts-per-tor = 4, spines = 2 }
        workload { %s }
        """.formatted(workload), "runner-test.conf").spec();
  }

  private static RunResult runPlain(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  @Test
  void shouldMatchThePlainEngineWhenActorsRunTheScenario() {
    ScenarioSpec spec = scenario("""
        collective = allreduce, algorithms = [ring, recursive-doubling, rabenseifner, binomial]
        sizes = [4 B, 1000 B, 64 KiB], iterations = 2, warmup = 1, ppn = 2""");
    AtomicLong lastProgress = new AtomicLong();
    RunResult actors = ScenarioRunner.run(cluster, spec, (done, timePs) -> lastProgress.set(done));
    RunResult plain = runPlain(spec);

    assertThat(actors.complete()).as(actors.incompleteReason()).isTrue();
    assertThat(actors.wrongElements()).isZero();
    assertThat(actors.cases()).hasSize(12);
    assertThat(actors.digest()).isEqualTo(plain.digest());
    assertThat(actors.cases()).isEqualTo(plain.cases());
    assertThat(actors.windows()).isEqualTo(plain.windows());
    assertThat(actors.events()).isEqualTo(plain.events());
    assertThat(lastProgress.get()).isEqualTo(ScenarioRunner.totalOperations(spec));
  }

  @Test
  void shouldCompareAFaultedRunWithItsBaselineUnlessTheScenarioSkipsIt() {
    String faulted = """
        name = runner-test
        seed = 3
        topology { kind = leaf-spine, hosts = 8, hosts-per-tor = 4, spines = 2 }
        workload { collective = allreduce, algorithms = [ring], sizes = [64 KiB], iterations = 3, warmup = 0 }
        faults {
          %s
          events = [{ at = 20 us, action = down, switch = "spine0" }, { at = 60 us, action = up, switch = "spine0" }]
        }
        """;
    ScenarioSpec spec = ScenarioLoader.parse(faulted.formatted(""), "runner-test.conf").spec();
    AtomicLong lastProgress = new AtomicLong();
    RunResult actors = ScenarioRunner.run(cluster, spec, (done, timePs) -> lastProgress.set(done));
    RunResult plain = FaultImpact.compare(runPlain(spec), runPlain(spec.baseline()));

    assertThat(actors.complete()).as(actors.incompleteReason()).isTrue();
    assertThat(actors.faultImpacts()).hasSize(2).isEqualTo(plain.faultImpacts());
    assertThat(actors.impactOf(0).collectivesTouched()).isPositive();
    assertThat(actors.digest()).isEqualTo(plain.digest());
    // The baseline's operations come after the faulted run's: twice the workload.
    assertThat(ScenarioRunner.totalOperations(spec)).isEqualTo(2 * 8 * 3);
    assertThat(lastProgress.get()).isEqualTo(ScenarioRunner.totalOperations(spec));

    ScenarioSpec skipped = ScenarioLoader.parse(faulted.formatted("baseline = false"), "runner-test.conf").spec();
    RunResult alone = ScenarioRunner.run(cluster, skipped, (done, timePs) -> lastProgress.set(done));
    assertThat(alone.faultImpacts()).isNull();
    assertThat(alone.digest()).isEqualTo(runPlain(skipped).digest()).isNotEqualTo(actors.digest());
    assertThat(alone.faults()).isEqualTo(actors.faults());
    assertThat(ScenarioRunner.totalOperations(skipped)).isEqualTo(8 * 3);
    assertThat(lastProgress.get()).isEqualTo(8 * 3);
  }

  @Test
  void shouldMatchThePlainEngineAndTheRealTimesWhenActorsRunASyntheticPayload() {
    ScenarioSpec spec = scenario("""
        collective = allreduce, algorithms = [ring, rabenseifner], sizes = [4 B, 20 KiB], iterations = 2
        warmup = 1, ppn = 2, payload = synthetic""");
    ScenarioSpec realSpec = spec.toBuilder().workload(spec.workload().withSyntheticPayload(false)).build();

    RunResult actors = ScenarioRunner.run(cluster, spec, (done, timePs) -> {});
    RunResult plain = runPlain(spec);
    RunResult real = runPlain(realSpec);

    assertThat(actors.complete()).as(actors.incompleteReason()).isTrue();
    assertThat(actors.checked()).isFalse();
    assertThat(actors.digest()).isEqualTo(plain.digest()).isNotEqualTo(real.digest());
    assertThat(actors.cases()).isEqualTo(plain.cases()).allSatisfy(c -> assertThat(c.checked()).isFalse());
    assertThat(actors.cases()).extracting(CaseResult::avgLatencyPs)
        .isEqualTo(real.cases().stream().map(CaseResult::avgLatencyPs).toList());
    assertThat(actors.links()).isEqualTo(real.links());
    assertThat(actors.virtualEndPs()).isEqualTo(real.virtualEndPs());
  }

  @Test
  void shouldGiveTheSameDigestWhenTheSameScenarioRunsTwiceOnActors() {
    ScenarioSpec spec = scenario("""
        collective = alltoall, sizes = [64 B, 8 KiB], iterations = 2, warmup = 0, datatype = int64""");
    RunResult first = ScenarioRunner.run(cluster, spec, (done, timePs) -> {});
    RunResult second = ScenarioRunner.run(cluster, spec, (done, timePs) -> {});
    assertThat(first.complete()).isTrue();
    assertThat(first.wrongElements()).isZero();
    assertThat(second.digest()).isEqualTo(first.digest());
  }
}
