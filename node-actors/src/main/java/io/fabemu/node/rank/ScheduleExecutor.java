package io.fabemu.node.rank;

import io.fabemu.collectives.BufferId;
import io.fabemu.collectives.InPlaceAlias;
import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.LocalCopy;
import io.fabemu.collectives.ProtocolCost;
import io.fabemu.collectives.Schedule;
import io.fabemu.collectives.Step;
import io.fabemu.collectives.Tags;
import io.fabemu.collectives.Transfer;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncCodes;
import io.fabemu.core.inc.IncHeader1;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.inc.MpiHeader;
import io.fabemu.core.protocol.LineFraming;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.util.IntLongMap;
import java.util.Arrays;

/**
 * Runs one rank's schedules, one operation at a time, against a {@link RankHost}: a plain state machine driven by
 * {@link #begin} and {@link #onMessage}, with virtual time only.
 *
 * <p>Timing model. The rank has one CPU whose clock is {@code cpuFreePs}. A step starts at {@code cpuFreePs}
 * (after the previous step's last receive). A local copy costs {@link RankHost#localCopyPs}, except in an operation
 * run in place, where a copy of the rank's own input onto itself ({@link InPlaceAlias#aliases}) costs nothing: the
 * in-place call finds the data already there. Posting a send costs
 * {@link RankHost#sendOverheadPs}: {@code t = max(start, cpuFreePs) + overhead}, and the message (payload copied
 * at that moment) is handed to the host at {@code t}; sends may carry times later than the caller's "now". A
 * receive matched at {@code now} is applied at {@code t = max(now, cpuFreePs) + recvOverheadPs (+ reducePs(bytes))}.
 * The operation completes at {@code cpuFreePs} after its last step.
 *
 * <p>A protocol ({@link #setProtocol}: NCCL's Simple, LL or LL128) holds the engine of every message but an INC one
 * for its engine time ({@link ProtocolCost#enginePs}) after the send overhead, delays the message's hand-off by its
 * latency, the engine going on meanwhile, and marks the message with its framing, which the NIC puts on the wire
 * ({@link LineFraming}).
 *
 * <p>A rank with several engines ({@link RankHost#engines}: a GPU's SM groups, one per NCCL channel) runs each
 * transfer on the engine of its lane (lane k on engine k mod engines): within a step, after the step's copies, every
 * engine posts its sends and applies its receives on its own clock, as above with the engine's clock for
 * {@code cpuFreePs}; the step ends, and {@code cpuFreePs} stands, at the latest engine's. With one engine this is
 * the one CPU.
 *
 * <p>Matching. A message is matched by (source rank, tag), see {@link Tags}. A message that arrives before its
 * receive is posted (even one of a later operation) waits in an unexpected-message queue keyed by (source, tag),
 * FIFO, with its arrival time; when the receive is posted it is applied at once, at
 * {@code max(arrival, cpuFreePs)}.
 *
 * <p>Payload. An operation started with {@link #begin} runs on real data: sends carry copies of slices of the
 * buffers, receives copy or reduce into them. A received message's buffer, once applied, is kept for a later send
 * of the same shape ({@link BufferRecycler}), so messages make little garbage. One started with
 * {@link #beginSynthetic} runs on sizes only: the same steps, messages of the same sizes and the same costs (copy
 * and reduce times by bytes), but no data is touched.
 */
public final class ScheduleExecutor {
  private final int rank;
  private final RankHost host;
  private final IntLongMap<Transfer> posted = new IntLongMap<>();
  private final IntLongMap<Queued> unexpected = new IntLongMap<>();
  private int unexpectedCount;
  /** Buffers of messages received and applied, reused for the copies the rank's sends carry. */
  private final BufferRecycler recycler = new BufferRecycler();

  private Schedule schedule;
  /** The running operation's buffers; null when it runs on sizes only. */
  private DataBuffer[] buffers;
  /** Element size of a synthetic operation's counts (0 for one on real data, whose buffers know theirs). */
  private int syntheticElementBytes;
  /** What the running operation's input shares with its output; {@link InPlaceAlias#NONE} out of place. */
  private InPlaceAlias inPlace = InPlaceAlias.NONE;
  private static final long[] NO_PARTS = new long[0];
  /** When each part of the running (or last) operation ended, after its start (see {@link Schedule#partEnd}). */
  private long[] partEndsPs = NO_PARTS;
  private int nextPart;
  private ReduceOp op;
  private long opSequence;
  private int stepIndex;
  private int pendingReceives;
  private boolean active;
  private long cpuFreePs;
  /** Each engine's clock within the current step (one entry for a CPU rank). */
  private final long[] engineFreePs;
  private long operationStartPs;
  private long incGroupId;
  /**
   * In-network sends in the current INC group so far: the req_id of the next is its low 8 bits. Every leader of the
   * group sends the same sequence (one task per Allreduce, or one per segment of a pipelined one), so the tasks of a
   * group get consecutive req_ids, the same on every leader, as the switches' slot generations assume.
   */
  private long incTasksSent;
  private DataType incDataType;
  private ReduceOp incOp;
  /** How the following operations' messages are framed on the wire (null: as they are, Simple's way). */
  private LineFraming framing;
  /** What the following operations' protocol costs each message (latency, engine time). */
  private ProtocolCost protocolCost = ProtocolCost.NONE;

  /** A message that arrived before its receive was posted. */
  private static final class Queued {
    final Message message;
    final long arrivalPs;
    Queued next;

    Queued(Message message, long arrivalPs) {
      this.message = message;
      this.arrivalPs = arrivalPs;
    }
  }

  /**
   * Sets the INC group that in-network sends of the following operations belong to, and the element type and
   * operation the switches are to apply (the type also for operations on sizes only).
   */
  public void setIncGroup(long groupId, DataType dataType, ReduceOp reduceOp) {
    this.incGroupId = groupId;
    this.incTasksSent = 0;
    this.incDataType = dataType;
    this.incOp = reduceOp;
  }

  /**
   * Sets the protocol the following operations' messages travel by ({@link LineProtocol}) and what it costs: posting
   * a message holds its engine for the protocol's engine time on top of the send overhead, the message leaves the
   * protocol's latency after that (the engine goes on meanwhile) and, but an INC one, carries the protocol's framing
   * for the NIC. {@link LineProtocol#SIMPLE} at {@link ProtocolCost#NONE} is the model without protocols.
   */
  public void setProtocol(LineProtocol protocol, ProtocolCost cost) {
    this.framing = protocol.framing();
    this.protocolCost = cost;
  }

  /** The request for the NIC's INC unit: the task (the INC patent's Header1) under the INC paper's MPI header. */
  private IncRequest incTask(int count, long sizeBytes) {
    if (incDataType == null) {
      throw new IllegalStateException("rank " + rank + ": an in-network send needs an INC group (setIncGroup)");
    }
    int reqId = (int) (incTasksSent++ & 0xFF);
    int opCode = IncCodes.opCode(incOp);
    int typeCode = IncCodes.typeCode(incDataType);
    MpiHeader mpi = new MpiHeader(IncCodes.MPI_INC_TAG, rank, (int) (incGroupId & 0xFFFF), opCode, typeCode, reqId,
        Math.min(count, 0xFFFF));
    IncHeader1 task = new IncHeader1(IncCodes.taskId(incGroupId, reqId), incGroupId, opCode, typeCode, 0, count,
        sizeBytes, 0);
    return new IncRequest(IncPacketType.TASK_UP, mpi, null, task);
  }

  public ScheduleExecutor(int rank, RankHost host) {
    this.rank = rank;
    this.host = host;
    this.engineFreePs = new long[host.engines()];
  }

  /** The engine a transfer on {@code channel} runs on: its lane's, modulo the engines. */
  private int engineOf(int channel) {
    return engineFreePs.length == 1 ? 0 : Tags.index(channel) % engineFreePs.length;
  }

  /**
   * Starts an operation on real data at {@code nowPs} (or when the CPU is free, if later) and runs it as far as it
   * goes without new messages; it may complete at once.
   *
   * @param schedule   the rank's schedule
   * @param buffers    buffers indexed by {@link BufferId#ordinal()}, at least as large as the schedule says
   *                   (entries for buffers of size 0 may be null)
   * @param op         reduce op for reducing receives (null when the schedule never reduces)
   * @param opSequence the operation's sequence number in the rank's workload, the high half of every tag
   */
  public void begin(Schedule schedule, DataBuffer[] buffers, ReduceOp op, long opSequence, long nowPs) {
    begin(schedule, buffers, op, opSequence, nowPs, InPlaceAlias.NONE);
  }

  /**
   * Like {@link #begin(Schedule, DataBuffer[], ReduceOp, long, long)}, for an operation whose input shares
   * {@code inPlace} with its output: the copies it {@link InPlaceAlias#aliases aliases} still move the data (the
   * buffers stay separate, so the check stays exact) but cost no time.
   */
  public void begin(Schedule schedule, DataBuffer[] buffers, ReduceOp op, long opSequence, long nowPs,
                    InPlaceAlias inPlace) {
    if (buffers == null) {
      throw new IllegalArgumentException("rank " + rank + ": an operation on real data needs its buffers");
    }
    start(schedule, buffers, 0, op, opSequence, nowPs, inPlace);
  }

  /**
   * Starts an operation on sizes only (synthetic payload): the same steps, messages of the same sizes and the same
   * costs as {@link #begin}, but no buffers; sends carry no data and receives neither copy nor reduce.
   *
   * @param schedule     the rank's schedule
   * @param elementBytes bytes per element of the schedule's counts
   * @param opSequence   the operation's sequence number in the rank's workload, the high half of every tag
   */
  public void beginSynthetic(Schedule schedule, int elementBytes, long opSequence, long nowPs) {
    beginSynthetic(schedule, elementBytes, opSequence, nowPs, InPlaceAlias.NONE);
  }

  /** Like {@link #beginSynthetic(Schedule, int, long, long)}, run in place over {@code inPlace}. */
  public void beginSynthetic(Schedule schedule, int elementBytes, long opSequence, long nowPs, InPlaceAlias inPlace) {
    if (elementBytes < 1) {
      throw new IllegalArgumentException("rank " + rank + ": element size must be at least 1 B, got " + elementBytes);
    }
    start(schedule, null, elementBytes, null, opSequence, nowPs, inPlace);
  }

  private void start(Schedule schedule, DataBuffer[] buffers, int elementBytes, ReduceOp op, long opSequence,
                     long nowPs, InPlaceAlias inPlace) {
    if (active) {
      throw new IllegalStateException("rank " + rank + ": operation " + this.opSequence + " still running");
    }
    this.schedule = schedule;
    this.buffers = buffers;
    this.syntheticElementBytes = elementBytes;
    this.inPlace = inPlace == null ? InPlaceAlias.NONE : inPlace;
    this.op = op;
    this.opSequence = opSequence;
    this.stepIndex = -1;
    this.pendingReceives = 0;
    this.active = true;
    cpuFreePs = Math.max(cpuFreePs, nowPs);
    operationStartPs = cpuFreePs;
    partEndsPs = schedule.partCount() == 0 ? NO_PARTS : new long[schedule.partCount()];
    nextPart = 0;
    advance();
  }

  /**
   * A message for this rank arrived at {@code nowPs}: applied if the current step waits for it, queued otherwise.
   */
  public void onMessage(long nowPs, Message message) {
    if (message.destinationRank() != rank) {
      throw new IllegalArgumentException("rank " + rank + " got a message for rank " + message.destinationRank());
    }
    Transfer receive = active ? posted.remove(message.sourceRank(), message.tag()) : null;
    if (receive == null) {
      enqueue(message, nowPs);
      return;
    }
    apply(nowPs, receive, message);
    pendingReceives--;
    if (pendingReceives == 0) {
      advance();
    }
  }

  /** True while an operation is running (waiting for messages). */
  public boolean active() {
    return active;
  }

  /** When the CPU is next free; after an operation completes, its completion time. */
  public long cpuFreePs() {
    return cpuFreePs;
  }

  /**
   * When each part of the last operation ended, after its start (empty for an operation in one part); valid once
   * it completed, until the next one starts. Callers must not modify it.
   */
  public long[] partEndsPs() {
    return partEndsPs;
  }

  /** When the current (or last) operation started. */
  public long operationStartPs() {
    return operationStartPs;
  }

  /** Messages waiting for a receive that is not posted yet. */
  public int unexpectedMessages() {
    return unexpectedCount;
  }

  /**
   * Drops the buffers kept for reuse (see {@link BufferRecycler}): called between cases, whose message sizes
   * differ, so a rank does not hold on to buffers of sizes that will not come again.
   */
  public void releaseKeptBuffers() {
    recycler.clear();
  }

  /** Buffers kept for reuse now. */
  int keptBuffers() {
    return recycler.keptBuffers();
  }

  /** Receives of the current step still waiting for their message. */
  public int pendingReceives() {
    return pendingReceives;
  }

  private void advance() {
    while (pendingReceives == 0) {
      stepIndex++;
      // Every step before this one is done: the parts that end here are over.
      while (nextPart < partEndsPs.length && schedule.partEnd(nextPart) <= stepIndex) {
        partEndsPs[nextPart++] = cpuFreePs - operationStartPs;
      }
      if (stepIndex >= schedule.stepCount()) {
        active = false;
        schedule = null;
        buffers = null;
        return;
      }
      startStep(schedule.step(stepIndex));
    }
  }

  private void startStep(Step step) {
    long t = cpuFreePs;
    for (int i = 0; i < step.copyCount(); i++) {
      LocalCopy c = step.copy(i);
      long bytes;
      if (buffers == null) {
        bytes = (long) c.count() * syntheticElementBytes;
      } else {
        DataBuffer target = buffers[c.to().ordinal()];
        target.copyFrom(c.toOffset(), buffers[c.from().ordinal()], c.fromOffset(), c.count());
        bytes = (long) c.count() * target.elementBytes();
      }
      // In place this copy moves the rank's own input onto itself: the real call skips it.
      if (!inPlace.aliases(c)) {
        t += host.localCopyPs(bytes);
      }
    }
    // Every engine starts the step's transfers once its copies are done.
    Arrays.fill(engineFreePs, t);
    for (int i = 0; i < step.sendCount(); i++) {
      Transfer s = step.send(i);
      int engine = engineOf(s.channel());
      engineFreePs[engine] += host.sendOverheadPs();
      long tag = Tags.tag(opSequence, s.channel());
      Message message;
      if (s.count() == 0) {
        message = new Message(rank, s.peer(), tag, null);
      } else if (buffers == null) {
        message = Message.synthetic(rank, s.peer(), tag, (long) s.count() * syntheticElementBytes);
      } else {
        // The message carries a copy: the rank goes on writing its buffer while the message travels.
        DataBuffer source = buffers[s.buffer().ordinal()];
        DataBuffer copy = recycler.take(source.type(), s.count(), source.hasLocations());
        copy.copyFrom(0, source, s.offset(), s.count());
        message = new Message(rank, s.peer(), tag, copy);
      }
      if (s.inc()) {
        message = message.withExtension(incTask(s.count(), message.sizeBytes()));
      } else {
        engineFreePs[engine] += protocolCost.enginePs(message.sizeBytes());
        if (framing != null && message.sizeBytes() > 0) message = message.withExtension(framing);
      }
      // A message without payload (a barrier's) is no protocol's: it neither waits nor is framed.
      host.send(message, engineFreePs[engine] + (message.sizeBytes() > 0 ? protocolCost.latencyPs() : 0));
    }
    for (long engineFree : engineFreePs) {
      t = Math.max(t, engineFree);
    }
    cpuFreePs = t;
    for (int i = 0; i < step.receiveCount(); i++) {
      Transfer r = step.receive(i);
      long tag = Tags.tag(opSequence, r.channel());
      Queued queued = unexpected.get(r.peer(), tag);
      if (queued != null) {
        if (queued.next == null) {
          unexpected.remove(r.peer(), tag);
        } else {
          unexpected.put(r.peer(), tag, queued.next);
        }
        unexpectedCount--;
        apply(queued.arrivalPs, r, queued.message);
      } else {
        if (posted.put(r.peer(), tag, r) != null) {
          throw new IllegalStateException("rank " + rank + ": two receives from rank " + r.peer() + " with "
              + Tags.describe(tag));
        }
        pendingReceives++;
      }
    }
  }

  private void apply(long nowPs, Transfer receive, Message message) {
    DataBuffer data = message.data();
    if (buffers == null) {
      long expectedBytes = (long) receive.count() * syntheticElementBytes;
      if (data != null || message.sizeBytes() != expectedBytes) {
        throw new IllegalStateException("rank " + rank + ": message from rank " + message.sourceRank() + " with "
            + Tags.describe(message.tag()) + " has " + message.sizeBytes() + " B" + (data == null ? "" : " of data")
            + ", the synthetic receive expects " + expectedBytes + " B and no data");
      }
    } else {
      int received = data == null ? 0 : data.count();
      if (received != receive.count()) {
        throw new IllegalStateException("rank " + rank + ": message from rank " + message.sourceRank() + " with "
            + Tags.describe(message.tag()) + " has " + received + " elements, the receive expects "
            + receive.count());
      }
    }
    int engine = engineOf(receive.channel());
    long t = Math.max(nowPs, engineFreePs[engine]) + host.recvOverheadPs();
    if (receive.reduce() && message.sizeBytes() > 0) {
      t += host.reducePs(message.sizeBytes());
    }
    if (data != null) {
      DataBuffer target = buffers[receive.buffer().ordinal()];
      if (receive.reduce()) {
        target.reduceFrom(op, receive.offset(), data);
      } else {
        target.copyFrom(receive.offset(), data);
      }
      // Applied, the data is read by nobody any more (see Message): its buffer serves a later send. An INC result
      // is left alone, as the NIC's INC unit built it.
      if (IncRequest.of(message) == null) {
        recycler.giveBack(data);
      }
    }
    engineFreePs[engine] = t;
    cpuFreePs = Math.max(cpuFreePs, t);
  }

  private void enqueue(Message message, long arrivalPs) {
    Queued entry = new Queued(message, arrivalPs);
    Queued head = unexpected.get(message.sourceRank(), message.tag());
    if (head == null) {
      unexpected.put(message.sourceRank(), message.tag(), entry);
    } else {
      while (head.next != null) {
        head = head.next;
      }
      head.next = entry;
    }
    unexpectedCount++;
  }
}
