package io.fabemu.nic;

/**
 * A NIC's INC unit (the INC patent): it cuts a task into fragments and merges result fragments.
 *
 * @param fragmentBytes        data bytes per fragment (at most every INC switch's max payload)
 * @param engineLatencyPs      time the engine spends per fragment it builds or merges
 * @param retransmitTimeoutPs  how long the NIC waits for a task's result before it resends the fragments still
 *                             missing (loss recovery)
 * @param maxRetransmits       resends per task before the run fails with an error naming the task
 */
public record IncNicSpec(int fragmentBytes, long engineLatencyPs, long retransmitTimeoutPs, int maxRetransmits) {}
