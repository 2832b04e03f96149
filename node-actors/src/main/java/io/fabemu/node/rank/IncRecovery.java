package io.fabemu.node.rank;

import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.Tags;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.Message;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A leader's way out when a fault breaks its INC group's tree mid-case: the in-network step of the interrupted
 * Allreduce, and of every later one of the case, becomes a reduce and broadcast among the leaders on the host path,
 * at the lowest leader (the <i>root</i>). The ranks a leader leads never notice: they reduce to it and get the
 * result from it as before.
 *
 * <p>A leader learns of the break from its NIC ({@link #onBreakNotice}) or from the first recovery message another
 * leader sends it; notices reach the leaders at different times, so the protocol needs no agreement on when the
 * group broke. For each Allreduce (operation {@code k}) in broken mode:
 * <ul>
 *   <li>a leader other than the root sends the root its partial (PARTIAL) once it has one (it reached the in-network
 *       step, or was waiting in it), and takes the root's RESULT as the INC result;</li>
 *   <li>the root, waiting in the step, asks every other leader (QUERY): one whose in-network result came through
 *       before the break answers with it (RESULT), the others with their partial. With one result, that is the
 *       answer; else the root reduces the partials in rank order. It sends the result to every leader that sent a
 *       partial;</li>
 *   <li>a root whose own in-network result came through answers every partial with it.</li>
 * </ul>
 * Every leader's result is exact either way: the switches' aggregate, or the same reduction on the host. A leader
 * whose in-network result arrives after it sent its partial takes the first of the two; the other is dropped.
 *
 * <p>Time: the recovery keeps its own CPU clock, like the control plane: every message costs the host's send or
 * receive overhead, the root's reductions its reduce time. Tags: the Allreduce's operation number, phase
 * {@value #PHASE}, round 1 QUERY, 2 PARTIAL, 3 RESULT.
 */
final class IncRecovery {
  static final int PHASE = 14;
  private static final int ROUND_QUERY = 1;
  private static final int ROUND_PARTIAL = 2;
  private static final int ROUND_RESULT = 3;

  private final int rank;
  private final RankHost host;
  /** Recovery messages arrived and not consumed yet, by (source, tag), with their arrival times. */
  private final Map<Key, ArrayDeque<Arrived>> arrived = new HashMap<>();

  // The case: its group, leaders and root; 0 / null between INC cases.
  private long groupId;
  /** The operation number the case's setup ended with: recovery messages of earlier cases carry lower ones. */
  private long firstSequence;
  private ReduceOp op;
  private int root = -1;
  /** The leaders other than this one, ascending. */
  private int[] others = new int[0];
  private int predecessor;
  private boolean broken;
  /** Whether a group broke in any case so far: messages left over from its protocols may still arrive. */
  private boolean everBroken;
  private long cpuFreePs;

  // The in-network step this leader began last.
  private long taskSequence = -1;
  private Message task;
  private boolean taskDone;
  /** Whether the step's result came through the switches (the answer to a root's QUERY). */
  private boolean doneByInc;
  /** The step's result once done (null for a synthetic payload). */
  private DataBuffer taskResult;
  private boolean partialSent;
  /** The root, collecting: the reply of each other leader (a PARTIAL or a RESULT message), by rank. */
  private boolean collecting;
  private final Map<Integer, Message> replies = new HashMap<>();
  /** The result to hand the executor as the INC result, when one is ready; and when. */
  private Message ready;
  private long readyPs;

  private record Arrived(Message message, long arrivalPs) {}

  private record Key(int source, long tag) {}

  IncRecovery(int rank, RankHost host) {
    this.rank = rank;
    this.host = host;
  }

  /**
   * An INC case begins with group {@code groupId} in use (its setup succeeded); this rank is a leader or not.
   *
   * @param firstSequence the operation number of the case's first operation after its setup
   */
  void beginCase(IncLayout layout, long groupId, ReduceOp op, long firstSequence) {
    this.groupId = groupId;
    this.firstSequence = firstSequence;
    this.op = op;
    this.broken = false;
    this.taskSequence = -1;
    this.task = null;
    this.taskDone = false;
    this.doneByInc = false;
    this.taskResult = null;
    this.partialSent = false;
    this.collecting = false;
    this.replies.clear();
    this.ready = null;
    if (!layout.isLeader(rank)) {
      this.root = -1;
      this.others = new int[0];
      return;
    }
    List<Integer> leaders = new ArrayList<>();
    for (int g = 0; g < layout.groupCount(); g++) {
      for (int leader : layout.leaders(g)) leaders.add(leader);
    }
    leaders.sort(null);
    this.root = leaders.get(0);
    this.others = leaders.stream().filter(l -> l != rank).mapToInt(Integer::intValue).toArray();
    this.predecessor = layout.ringPredecessor(rank);
  }

  /** The INC case is over: later notices and leftover messages are dropped. */
  void endCase() {
    groupId = 0;
    root = -1;
  }

  /** True when the running case's group is broken (this leader knows it). */
  boolean broken() {
    return broken;
  }

  /** True when some case's group broke: late messages of its recovery or release may still arrive. */
  boolean everBroken() {
    return everBroken;
  }

  /**
   * The executor hands the NIC the in-network task of operation {@code k} (the message's tag says which) at
   * {@code atPs}.
   *
   * @return true to send it on to the NIC; false when the group is broken and the task is done on the host instead
   */
  boolean onTaskSent(Message taskMessage, long atPs) {
    if (root < 0) return true;
    task = taskMessage;
    taskSequence = Tags.opSequence(taskMessage.tag());
    taskDone = false;
    doneByInc = false;
    taskResult = null;
    partialSent = false;
    collecting = false;
    replies.clear();
    if (!broken) return true;
    cpuFreePs = Math.max(cpuFreePs, atPs);
    recover();
    pump();
    return false;
  }

  /**
   * The NIC's INC result (TASK_DOWN) of this leader's task arrived.
   *
   * @return true to hand it to the executor; false when the step was already completed on the host (a late copy)
   */
  boolean onIncResult(Message result, long nowPs) {
    // By the whole tag: a pipelined Allreduce sends one task per segment, and a segment's result may come after the
    // next segment's task was sent; only the result of the last task sent is this step's.
    if (root < 0 || task == null || result.tag() != task.tag()) return true;
    if (taskDone) return false;
    taskDone = true;
    doneByInc = true;
    taskResult = result.data();
    cpuFreePs = Math.max(cpuFreePs, nowPs);
    if (rank == root) {
      // Partials that came for this step get the switches' result.
      for (int other : others) {
        Message reply = replies.get(other);
        if (reply != null && Tags.round(reply.tag()) == ROUND_PARTIAL) send(other, ROUND_RESULT, taskResult);
      }
      collecting = false;
      replies.clear();
    }
    pump();
    return true;
  }

  /** The NIC says a fault broke group {@code brokenGroupId} at {@code nowPs}. */
  void onBreakNotice(long brokenGroupId, long nowPs) {
    if (root < 0 || brokenGroupId != groupId) return;
    enterBroken(nowPs);
    pump();
  }

  /** A recovery message (phase {@value #PHASE}) arrived at {@code nowPs}. */
  void onMessage(Message message, long nowPs) {
    if (root < 0 || Tags.opSequence(message.tag()) < firstSequence) return; // a late copy of an earlier case's
    arrived.computeIfAbsent(new Key(message.sourceRank(), message.tag()), k -> new ArrayDeque<>())
        .add(new Arrived(message, nowPs));
    enterBroken(nowPs); // another leader knows the group is broken
    pump();
  }

  /** The result to hand the executor as the INC result of its step, once (null when none is ready). */
  Message takeReady() {
    Message r = ready;
    ready = null;
    return r;
  }

  /** When the result {@link #takeReady} hands over is ready. */
  long readyPs() {
    return readyPs;
  }

  private void enterBroken(long nowPs) {
    if (broken) return;
    broken = true;
    everBroken = true;
    cpuFreePs = Math.max(cpuFreePs, nowPs);
    if (task != null && !taskDone) recover();
  }

  /** This leader waits in its in-network step and the group is broken: start the host exchange. */
  private void recover() {
    if (rank == root) {
      if (collecting) return;
      collecting = true;
      replies.clear();
      for (int other : others) send(other, ROUND_QUERY, null);
    } else if (!partialSent) {
      partialSent = true;
      send(root, ROUND_PARTIAL, task.data());
    }
  }

  /** Consumes what has arrived for the current step, for as long as something does. */
  private void pump() {
    if (task == null) return;
    long k = taskSequence;
    if (rank != root) {
      if (take(root, k, ROUND_QUERY) != null) {
        if (doneByInc) {
          send(root, ROUND_RESULT, taskResult);
        } else if (!taskDone) {
          recover();
        }
      }
      Message result = take(root, k, ROUND_RESULT);
      if (result != null && !taskDone) {
        taskDone = true;
        taskResult = result.data();
        complete();
      }
      return;
    }
    for (int other : others) {
      Message partial = peek(other, k, ROUND_PARTIAL);
      Message result = peek(other, k, ROUND_RESULT);
      if (taskDone) {
        if (partial != null) {
          take(other, k, ROUND_PARTIAL);
          send(other, ROUND_RESULT, taskResult);
        }
        if (result != null) take(other, k, ROUND_RESULT); // an answer to a QUERY no longer needed
      } else if (collecting && !replies.containsKey(other) && (partial != null || result != null)) {
        replies.put(other, take(other, k, partial != null ? ROUND_PARTIAL : ROUND_RESULT));
      }
    }
    if (collecting && !taskDone && replies.size() == others.length) finishAtRoot();
  }

  /** Every other leader has answered: the result is one that came through the switches, or the host reduction. */
  private void finishAtRoot() {
    Message through = null;
    for (int other : others) {
      Message reply = replies.get(other);
      if (Tags.round(reply.tag()) == ROUND_RESULT) {
        through = reply;
        break;
      }
    }
    DataBuffer result = through == null ? null : through.data();
    if (through == null) {
      // In rank order, the root (the lowest leader) first; a synthetic payload costs the time without the data.
      result = task.data() == null ? null : task.data().slice(0, task.data().count());
      for (int other : others) {
        Message partial = replies.get(other);
        if (result != null) result.reduceFrom(op, 0, partial.data());
        cpuFreePs += host.reducePs(partial.sizeBytes());
      }
    }
    taskDone = true;
    taskResult = result;
    collecting = false;
    for (int other : others) {
      if (Tags.round(replies.get(other).tag()) == ROUND_PARTIAL) send(other, ROUND_RESULT, result);
    }
    replies.clear();
    complete();
  }

  /** The step's result is here: hand it to the executor as if it came from the ring predecessor through the TOR. */
  private void complete() {
    DataBuffer copy = taskResult == null ? null : taskResult.slice(0, taskResult.count());
    ready = new Message(predecessor, rank, task.tag(), copy, task.sizeBytes());
    readyPs = cpuFreePs;
  }

  /**
   * Sends a QUERY (no data), or a PARTIAL or RESULT of the step: {@code data} copied (the receiver owns its copy),
   * or, for a synthetic payload, the step's size without data.
   */
  private void send(int destination, int round, DataBuffer data) {
    cpuFreePs += host.sendOverheadPs();
    long tag = Tags.tag(taskSequence, Tags.channel(PHASE, round, 0));
    Message message;
    if (round == ROUND_QUERY) {
      message = new Message(rank, destination, tag, null);
    } else if (data != null) {
      message = new Message(rank, destination, tag, data.slice(0, data.count()));
    } else {
      message = Message.synthetic(rank, destination, tag, task.sizeBytes());
    }
    host.send(message, cpuFreePs);
  }

  private Message peek(int source, long sequence, int round) {
    ArrayDeque<Arrived> queue = arrived.get(new Key(source, Tags.tag(sequence, Tags.channel(PHASE, round, 0))));
    return queue == null ? null : queue.peek().message();
  }

  /** Takes the oldest message from {@code source} of that step and round, charging its receive; null if none. */
  private Message take(int source, long sequence, int round) {
    Key key = new Key(source, Tags.tag(sequence, Tags.channel(PHASE, round, 0)));
    ArrayDeque<Arrived> queue = arrived.get(key);
    if (queue == null) return null;
    Arrived a = queue.poll();
    if (queue.isEmpty()) arrived.remove(key);
    cpuFreePs = Math.max(cpuFreePs, a.arrivalPs()) + host.recvOverheadPs();
    return a.message();
  }
}
