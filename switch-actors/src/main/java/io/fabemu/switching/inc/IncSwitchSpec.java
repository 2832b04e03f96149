package io.fabemu.switching.inc;

import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.Set;

/**
 * A switch's INC unit (the INC paper's FPGA beside the switch pipeline; the INC patent's switch INC unit).
 *
 * @param unitLatencyPs       pipeline latency of the INC unit per flagged packet (it does not hold the unit)
 * @param unitBitsPerSecond   rate at which the unit reduces payload, one packet at a time (0: free)
 * @param aggregationSlots    aggregation buffers (one per fragment being aggregated) the switch has in all
 * @param maxGroups           INC groups the switch can hold at once (a SPINE reports what is left as ava_grp_num)
 * @param maxPayloadBytes     largest data payload of one INC packet
 * @param maxDataSizeBytes    largest message (bytes of data per rank) the switch aggregates (sup_max_data_size)
 * @param operations          reduce operations the unit supports
 * @param dataTypes           element types the unit supports
 */
public record IncSwitchSpec(long unitLatencyPs, long unitBitsPerSecond, int aggregationSlots, int maxGroups,
                            int maxPayloadBytes, int maxDataSizeBytes, Set<ReduceOp> operations,
                            Set<DataType> dataTypes) {
  public IncSwitchSpec {
    operations = Set.copyOf(operations);
    dataTypes = Set.copyOf(dataTypes);
  }
}
