package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Existing collectives on the optical full interconnect of the optical patent: NPUs relay transit packets between the
 * intra-server fabric and their circuits, so traffic for a server without a circuit from the sending NPU goes
 * through the NPU whose circuit reaches it. Element counts that do not divide by the ranks (1, 1001, 10001).
 */
class OpticalFabricTest {

  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, 1_000_000L);
  /** 1, 1001 and 10001 elements of 4 bytes (int32), or of 8 bytes (float64): divisible by no rank count here. */
  private static final List<Long> SIZES = List.of(4L, 4_004L, 40_004L);
  private static final List<Long> SIZES_OF_8 = List.of(8L, 8_008L, 80_008L);

  private static ScenarioSpec scenario(OpticalSpec topology, int ppn, Collective collective, Algorithm algorithm,
                                       DataType type, ReduceOp op, List<Long> sizes) {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(2048, 64, 100_000L, 120_000L),
        new SwitchSpec(300_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), sizes).iterations(2).warmup(1).ppn(ppn)
        .dataType(type).op(op).build();
    return ScenarioSpec.builder("optical", "test", 17, topology, devices, workload).build();
  }

  private static OpticalSpec optical(int servers, int npus, IntraServer intra, ConnectionFormula formula) {
    return new OpticalSpec(servers, npus, intra, INTRA, OPTICAL, formula);
  }

  private static void assertExact(RunResult result, String what) {
    assertThat(result.complete()).as(what + ": " + result.incompleteReason()).isTrue();
    assertThat(result.cases()).as(what).hasSize(SIZES.size())
        .allSatisfy(c -> assertThat(c.wrongElements()).as(what).isZero())
        .allSatisfy(c -> assertThat(c.maxLatencyPs()).as(what).isPositive());
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsWhenEveryCollectiveRunsOnAnOpticalCluster(Collective collective) {
    // M odd (formula 1, one NPU per server idle in no plane) and M even (formula 3, and formula 1 with idle NPUs).
    for (OpticalSpec topology : List.of(optical(3, 3, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_1),
        optical(4, 3, IntraServer.SWITCH, ConnectionFormula.FORMULA_3),
        optical(4, 4, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_1))) {
      for (int ppn : new int[] {1, 2}) {
        ScenarioSpec spec = scenario(topology, ppn, collective, Algorithm.AUTO, DataType.INT32, ReduceOp.SUM,
            SIZES);
        assertExact(FabricTest.run(spec), collective + " on " + topology.build() + " ppn " + ppn);
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"5, 5, FULL_MESH, FORMULA_1", "5, 6, SWITCH, FORMULA_1", "6, 5, FULL_MESH, FORMULA_3",
      "6, 6, SWITCH, FORMULA_3", "2, 2, SWITCH, FORMULA_3"})
  void shouldGiveExactResultsWhenAnyAllreduceRunsOnOddAndEvenServerCounts(int servers, int npus, IntraServer intra,
                                                                          ConnectionFormula formula) {
    OpticalSpec topology = optical(servers, npus, intra, formula);
    for (Algorithm algorithm : List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING, Algorithm.RABENSEIFNER,
        Algorithm.BINOMIAL)) {
      ScenarioSpec spec = scenario(topology, 1, Collective.ALLREDUCE, algorithm, DataType.FLOAT64, ReduceOp.MAX,
          SIZES_OF_8);
      assertExact(FabricTest.run(spec), algorithm + " on " + topology.build());
    }
  }

  @ParameterizedTest
  @EnumSource(IntraServer.class)
  void shouldGiveTheSameDigestWhenTheSameScenarioRunsTwice(IntraServer intra) {
    ScenarioSpec spec = scenario(optical(4, 3, intra, ConnectionFormula.FORMULA_3), 1, Collective.ALLREDUCE,
        Algorithm.RING, DataType.INT32, ReduceOp.SUM, SIZES);
    RunResult first = FabricTest.run(spec);
    RunResult second = FabricTest.run(spec);
    assertExact(first, "first");
    assertThat(first.digest()).isEqualTo(second.digest()).hasSize(64);
  }
}
