package io.fabemu.core.inc;

import io.fabemu.core.protocol.Message;

/**
 * What a rank asks of its NIC's INC unit with a message (and what the NIC hands up with a message it delivers).
 * Sending: a control message ({@link IncPacketType#TREE_UP} query, {@link IncPacketType#TREE_DOWN} notify,
 * {@link IncPacketType#RELEASE}) travels as one packet whose {@code control} payload the switches update; a task
 * ({@link IncPacketType#TASK_UP}) is the message's data under {@code task} (the INC patent's Header1), cut by the NIC
 * into fragments. Delivered: the control payload as the switches left it, or {@link IncPacketType#TASK_DOWN} with the
 * aggregated result as the message's data.
 *
 * @param type    the packet type
 * @param mpi     the MPI header (tag, src_rank, comm_id, op_code, operand type, req_id, pkt_para_num)
 * @param control the control payload; null on tasks
 * @param task    Header1; null on control messages
 */
public record IncRequest(IncPacketType type, MpiHeader mpi, ControlPayload control, IncHeader1 task)
    implements Message.Extension {

  /**
   * What {@code message} asks of the INC unit (or was, delivered); null for a message that is not INC's (an ordinary
   * one, or one carrying another feature's extension such as a protocol's {@code LineFraming}).
   */
  public static IncRequest of(Message message) {
    return message.extension() instanceof IncRequest request ? request : null;
  }
}
