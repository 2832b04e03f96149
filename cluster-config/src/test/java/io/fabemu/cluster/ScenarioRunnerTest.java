package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.engine.WindowedEngine;
import io.fabemu.core.fabric.Fabric;
import io.fabemu.core.result.ResultAggregator;
import io.fabemu.core.result.RunResult;
import io.fabemu.core.spec.ScenarioSpec;
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
    Fabric fabric = Fabric.build(spec);
    WindowedEngine engine = new WindowedEngine(fabric.devices(), fabric.lookaheadPs());
    fabric.startEvents().forEach(engine::inject);
    engine.run();
    return ResultAggregator.aggregate(spec, fabric.worldSize(), engine.reports(), engine.lastWindowStartPs(),
        engine.windows(), engine.eventsHandled(), 0);
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
