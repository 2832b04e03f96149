package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.ProtocolCost;
import io.fabemu.collectives.ProtocolSpec;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.time.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reports' line on the protocol each size ran by. */
class ProtocolNoteTest {
  private static final List<Long> SIZES = List.of(1024L, 64L << 10, 512L << 10, 256L << 20);

  private static WorkloadSpec workload(ProtocolSpec protocols) {
    return WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.INC_NODE), SIZES)
        .protocols(protocols).build();
  }

  @Test
  void shouldSayNothingWhenEveryCaseRunsSimpleAtNoCost() {
    assertThat(ProtocolNote.of(workload(ProtocolSpec.SIMPLE_ONLY), 0, 8, 1, 1)).isEmpty();
  }

  @Test
  void shouldGroupTheSizesOfEachProtocolInTurn() {
    // The tuner's example of ProtocolSpecTest: LL to 64 KiB, LL128 at 512 KiB, Simple at 256 MiB on 8 ranks.
    ProtocolSpec auto = new ProtocolSpec(List.of(LineProtocol.values()), new ProtocolCost(2_000_000L, 0),
        new ProtocolCost(0, 400 * Units.GBPS), new ProtocolCost(500_000L, 0), 3_200 * Units.GBPS);
    assertThat(ProtocolNote.of(workload(auto), 0, 8, 1, 1))
        .isEqualTo("protocol auto: ll 1 KiB to 64 KiB, ll128 512 KiB, simple 256 MiB");
    // The in-network algorithm runs Simple at every size.
    assertThat(ProtocolNote.of(workload(auto), 1, 8, 1, 1)).isEqualTo("protocol auto: simple 1 KiB to 256 MiB");
    ProtocolSpec ll = new ProtocolSpec(List.of(LineProtocol.LL), ProtocolCost.NONE, ProtocolCost.NONE,
        ProtocolCost.NONE, 1);
    assertThat(ProtocolNote.of(workload(ll), 0, 8, 1, 4)).isEqualTo("protocol ll: ll 4 KiB to 1 GiB");
  }
}
