package io.fabemu.nic;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.inc.IncCodes;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncHeader0;
import io.fabemu.core.inc.IncHeader1;
import io.fabemu.core.inc.IncHeader2;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.inc.IncStreamHeader;
import io.fabemu.core.inc.IncWireCodec;
import io.fabemu.core.inc.MpiHeader;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.util.IntLongMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A NIC's INC unit (the INC patent, claims 3 and 4): the logic, without the NIC's timing, which {@link IncExtension}
 * adds (the work request, the DMA channels, the link to the TOR).
 *
 * <p>Up: a task the host hands over (Header1) is cut into M fragments of {@code fragmentBytes} (whole elements),
 * each with a Header2 that caches the real destination while the IP destination becomes the host's TOR (the INC
 * patent's destination swap). The fragments are kept until the task's result has fully arrived here, so that the
 * fragments whose result is still missing when the retransmission timer fires can be resent (loss recovery; the
 * switches never count a contribution twice). Down: the result fragments of a task are merged with a fragment
 * receive-status table (a bitmap of the fragment indexes in; duplicates are ignored) into one message for the host.
 *
 * <p>Streams: a notify that names a stream window (sup_comm_type, see {@code IncCodes#streamWindow}) tells the unit
 * that the group aggregates a message larger than sup_max_data_size as a stream of chunks of at most that size. A
 * task larger than one chunk is then cut into chunks ({@link IncChunkWindow}); each chunk is a task of its own
 * (its fragments carry an {@link IncStreamHeader}, its own receive-status table and retransmission timer, keyed by
 * {@link #taskKey}), at most a window of them in flight; when a chunk's result is in, the next chunk of its window
 * position is queued to be sent ({@link #takeReadyChunks}), and the host gets one message once every chunk's result
 * is in. A task that fits one chunk takes the path of a group without a window, unchanged.
 *
 * <p>Control messages (query, notify, release) travel as one packet each, with Header0 and the control payload
 * the switches update on the way.
 *
 * <p>Length: past 500 lines because a task's life (fragments, receive-status table, timer, completion) is one piece
 * of state that the stream's chunks reuse as they are; the stream's own schedule is {@link IncChunkWindow}.
 *
 * <p>The engine is one FIFO unit ({@link #process}): every fragment it builds or merges, and every control packet,
 * takes {@code engineLatencyPs}.
 *
 * <p>Faults: the unit learns from the notifies it sends (an MRR's) or receives (an NMRR's) which SPINE each group's
 * tree goes through, and which of this host's leader ranks belong to the group, until the group's release. When the
 * management node names dead links ({@link #onDeadLinks}), a group whose SPINE, or a link of it, is among them is
 * broken: its pending tasks are dropped (their fragments could only be lost in the dead tree, and their timers
 * would give up), a task for it is never started again, and its leaders are told ({@link #breakNotice}) so that
 * they finish the case on the host.
 */
public final class NicIncUnit {
  /** Largest value of a 16-bit header field (fragment count, fragment bytes, pkt_para_num). */
  private static final int MAX_U16 = 0xFFFF;

  private final int host;
  private final int torVertex;
  private final IncNicSpec spec;
  private final int nicHeaderBytes;
  private final long hostIp;
  private final long torIp;
  /**
   * Tasks whose fragments were sent and whose result has not fully arrived, by (leader rank, task id): in Socket
   * mode a host runs several leaders of one group, each with its own task of the same id.
   */
  private final IntLongMap<Task> tasks = new IntLongMap<>();
  /** When the engine has finished everything queued so far. */
  private long engineFreeAtPs;
  /** Groups over a SPINE that this host's leaders belong to (from the notifies), by group id, until released. */
  private final Map<Long, KnownGroup> groups = new TreeMap<>();
  private long nextTimerSerial;
  private long fragmentsResent;
  /** Groups that stream messages larger than one chunk (from the notifies), by group id, until released. */
  private final Map<Long, StreamSetting> streamSettings = new TreeMap<>();
  /** Streamed tasks not complete, by (leader rank, task id); their chunks in flight are in {@link #tasks}. */
  private final IntLongMap<Stream> streams = new IntLongMap<>();
  /** Chunks whose window position came free, in the order it did: to be sent by the NIC. */
  private final ArrayDeque<ReadyChunk> readyChunks = new ArrayDeque<>();

  /** How a group streams: chunks of at most {@code chunkBytes} data bytes, {@code window} of them in flight. */
  private record StreamSetting(int chunkBytes, int window) {}

  /** Fragments to send now: a chunk whose window position came free, or a queued task's first ones. */
  public record ReadyChunk(int leaderRank, Packet[] fragments) {}

  /**
   * Leaders with a task of a group in flight, by (leader rank, group id): a leader's next task of the group waits
   * (in {@link #waiting}) until it completes, so that the tasks of a group use each aggregation slot one after the
   * other, as the switches' generations assume (a pipelined Allreduce hands over a segment's task before the last
   * one's result is in).
   */
  private final IntLongMap<Boolean> busy = new IntLongMap<>();
  private final IntLongMap<ArrayDeque<Queued>> waiting = new IntLongMap<>();

  /** A task handed over while its leader had one of the same group in flight. */
  private record Queued(Message message, int destinationHost, long messageId) {}

  /**
   * @param host           the host's vertex id
   * @param torVertex      the vertex of the host's TOR, the IP destination of every task fragment
   * @param nicHeaderBytes the NIC's header bytes per packet (Ethernet, IP, UDP, BTH), before the INC frame
   */
  public NicIncUnit(int host, int torVertex, IncNicSpec spec, int nicHeaderBytes) {
    if (spec.fragmentBytes() < 1 || spec.fragmentBytes() > MAX_U16) {
      throw new IllegalArgumentException("INC fragment size must be 1.." + MAX_U16 + " B, got "
          + spec.fragmentBytes());
    }
    if (spec.engineLatencyPs() < 0 || spec.retransmitTimeoutPs() <= 0 || spec.maxRetransmits() < 0) {
      throw new IllegalArgumentException("a NIC's INC unit needs a latency >= 0, a retransmit timeout > 0 and "
          + "max retransmits >= 0, got " + spec);
    }
    this.host = host;
    this.torVertex = torVertex;
    this.spec = spec;
    this.nicHeaderBytes = nicHeaderBytes;
    this.hostIp = IncAddresses.ofVertex(host);
    this.torIp = IncAddresses.ofVertex(torVertex);
  }

  public IncNicSpec spec() {
    return spec;
  }

  /**
   * The engine as a FIFO: a packet ready for it at {@code readyPs} is done {@code engineLatencyPs} after the
   * engine is free and the packet is ready.
   *
   * @return when the packet leaves the engine
   */
  public long process(long readyPs) {
    long done = Math.max(readyPs, engineFreeAtPs) + spec.engineLatencyPs();
    engineFreeAtPs = done;
    return done;
  }

  /**
   * Cuts the TASK_UP {@code message} for {@code destinationHost} (the leader whose result it carries: the ring
   * successor) into fragments addressed to the TOR, and keeps them until the task's result is in. A task of a
   * streamed group larger than one chunk starts as a stream: the fragments of its first window of chunks.
   *
   * @param messageId the NIC's message counter, carried by the fragments for tracing
   * @return the fragments in index order (of a stream: chunk by chunk); their tail times are not set yet
   * @throws IllegalArgumentException when the message is no task, or the task does not fit the headers
   * @throws IllegalStateException    when the same task (group and req_id) is still waiting for its result
   */
  public Packet[] startTask(Message message, int destinationHost, long messageId) {
    IncRequest request = IncRequest.of(message);
    if (request == null || request.type() != IncPacketType.TASK_UP || request.task() == null
        || request.mpi() == null) {
      throw new IllegalArgumentException("NIC " + host + ": an INC task needs type TASK_UP, a Header1 and an MPI "
          + "header, got " + request);
    }
    int leaderRank = message.sourceRank();
    long groupId = request.task().groupId();
    if (busy.get(leaderRank, groupId) != null) {
      long taskId = IncCodes.taskId(groupId, request.mpi().reqId());
      if (tasks.get(leaderRank, taskId) != null || streams.get(leaderRank, taskId) != null) {
        throw new IllegalStateException("NIC " + host + ": INC task of rank " + leaderRank + ", group " + groupId
            + " req_id " + request.mpi().reqId() + " was sent again before its result arrived");
      }
      ArrayDeque<Queued> queue = waiting.get(leaderRank, groupId);
      if (queue == null) {
        queue = new ArrayDeque<>();
        waiting.put(leaderRank, groupId, queue);
      }
      queue.add(new Queued(message, destinationHost, messageId));
      return new Packet[0];
    }
    busy.put(leaderRank, groupId, Boolean.TRUE);
    return launch(message, destinationHost, messageId);
  }

  /** A leader's task of a group is complete: its next one, if queued, starts (fragments to {@link #readyChunks}). */
  private void onTaskDone(int leaderRank, long groupId) {
    busy.remove(leaderRank, groupId);
    ArrayDeque<Queued> queue = waiting.get(leaderRank, groupId);
    if (queue == null) return;
    Queued next = queue.poll();
    if (queue.isEmpty()) waiting.remove(leaderRank, groupId);
    busy.put(leaderRank, groupId, Boolean.TRUE);
    readyChunks.add(new ReadyChunk(leaderRank, launch(next.message(), next.destinationHost(), next.messageId())));
  }

  private Packet[] launch(Message message, int destinationHost, long messageId) {
    IncRequest request = IncRequest.of(message);
    IncHeader1 task = request.task();
    MpiHeader mpi = request.mpi();
    DataBuffer data = message.data();
    int elementBytes = data != null ? data.elementBytes() : elementBytesOf(task);
    long totalBytes = message.sizeBytes();
    // Fragments end on element boundaries, so the switches reduce whole elements.
    int elementsPerFragment = Math.max(1, spec.fragmentBytes() / elementBytes);
    int fragmentBytes = elementsPerFragment * elementBytes;
    if (fragmentBytes > MAX_U16) {
      throw new IllegalArgumentException("NIC " + host + ": one " + elementBytes + " B element does not fit a "
          + "fragment's 16-bit size");
    }
    long count = totalBytes == 0 ? 1 : (totalBytes + fragmentBytes - 1) / fragmentBytes;
    long taskId = IncCodes.taskId(task.groupId(), mpi.reqId());
    int leader = message.sourceRank();
    StreamSetting streaming = streamSettings.get(task.groupId());
    if (streaming != null && totalBytes > streaming.chunkBytes()) {
      return startStream(message, destinationHost, messageId, streaming, elementBytes, elementsPerFragment);
    }
    if (count > MAX_U16) {
      throw new IllegalArgumentException("NIC " + host + ": a task of " + totalBytes + " B in fragments of "
          + fragmentBytes + " B needs " + count + " fragments, more than Header2's " + MAX_U16);
    }
    int fragments = (int) count;
    if (tasks.get(leader, taskId) != null) {
      throw new IllegalStateException("NIC " + host + ": INC task of rank " + leader + ", group " + task.groupId()
          + " req_id " + mpi.reqId() + " was sent again before its result arrived");
    }
    long destinationIp = IncAddresses.ofVertex(destinationHost);
    // Header1 as the NIC completes it: the fragment size it cut by and the real destination.
    IncHeader1 filled = new IncHeader1(taskId, task.groupId(), task.opCode(), task.dataType(), fragmentBytes,
        data != null ? data.count() : totalBytes / elementBytes, totalBytes, destinationIp);
    MessageInfo info = new MessageInfo(message.sourceRank(), message.destinationRank(), message.tag(),
        data == null ? 0 : data.count(), data == null ? null : data.type(), data != null && data.hasLocations(),
        totalBytes);
    Packet[] out = new Packet[fragments];
    for (int i = 0; i < fragments; i++) {
      int bytes = (int) Math.min(fragmentBytes, totalBytes - (long) i * fragmentBytes);
      int elements = bytes / elementBytes;
      int elementOffset = data == null ? 0 : i * elementsPerFragment;
      // A view: a message's data is never written once sent, so the fragments kept for retransmission stay valid
      // while the rank goes on with its own buffers.
      DataBuffer slice = data == null ? null : data.view(elementOffset, elements);
      MpiHeader fragmentMpi = new MpiHeader(mpi.tag(), mpi.srcRank(), mpi.commId(), mpi.opCode(),
          mpi.operandType(), mpi.reqId(), elements);
      IncHeader2 header2 = new IncHeader2(taskId, i, fragments, bytes, 0, destinationIp);
      IncFrame frame = new IncFrame(IncPacketType.TASK_UP, hostIp, torIp, fragmentMpi, null, header2, null);
      out[i] = Packet.builder().sourceHost(host).destinationHost(torVertex).messageId(messageId).segmentIndex(i)
          .segmentCount(fragments).wireBytes(wireBytes(frame, bytes)).tailTimePs(0L).info(info)
          .elementOffset(elementOffset).slice(slice).extension(frame).build();
    }
    tasks.put(leader, taskId, new Task(leader, filled, mpi, out));
    return out;
  }

  /**
   * Starts a streamed task: its first window of chunks, each a task of its own under {@link #taskKey}.
   *
   * @return the fragments of those chunks, chunk by chunk
   */
  private Packet[] startStream(Message message, int destinationHost, long messageId, StreamSetting streaming,
                               int elementBytes, int elementsPerFragment) {
    IncRequest request = IncRequest.of(message);
    IncHeader1 task = request.task();
    MpiHeader mpi = request.mpi();
    DataBuffer data = message.data();
    long totalBytes = message.sizeBytes();
    long taskId = IncCodes.taskId(task.groupId(), mpi.reqId());
    int leader = message.sourceRank();
    if (streams.get(leader, taskId) != null) {
      throw new IllegalStateException("NIC " + host + ": streamed INC task of rank " + leader + ", group "
          + task.groupId() + " req_id " + mpi.reqId() + " was sent again before its result arrived");
    }
    // Chunks of whole elements and whole fragments, at most the notify's chunk size.
    long chunkElements = Math.max(1, streaming.chunkBytes() / elementBytes);
    if (chunkElements > elementsPerFragment) {
      chunkElements = chunkElements / elementsPerFragment * elementsPerFragment;
    }
    long elementCount = data != null ? data.count() : totalBytes / elementBytes;
    IncChunkWindow window = new IncChunkWindow(elementCount, chunkElements, streaming.window());
    long destinationIp = IncAddresses.ofVertex(destinationHost);
    IncHeader1 filled = new IncHeader1(taskId, task.groupId(), task.opCode(), task.dataType(),
        elementsPerFragment * elementBytes, elementCount, totalBytes, destinationIp);
    MessageInfo info = new MessageInfo(message.sourceRank(), message.destinationRank(), message.tag(),
        data == null ? 0 : data.count(), data == null ? null : data.type(), data != null && data.hasLocations(),
        totalBytes);
    Stream stream = new Stream(leader, taskId, filled, mpi, info, data, elementBytes, elementsPerFragment, window,
        messageId);
    streams.put(leader, taskId, stream);
    List<Packet> out = new ArrayList<>();
    for (long k : window.start()) {
      for (Packet p : startChunk(stream, k)) out.add(p);
    }
    return out.toArray(new Packet[0]);
  }

  /** Chunk {@code k} of a stream as a task of its own: its fragments, kept until its result is in. */
  private Packet[] startChunk(Stream stream, long k) {
    IncChunkWindow window = stream.window;
    int elements = window.elements(k);
    long chunkOffset = window.elementOffset(k);
    int fragmentElements = stream.elementsPerFragment;
    int fragments = (elements + fragmentElements - 1) / fragmentElements;
    IncStreamHeader header = new IncStreamHeader(k, window.chunkCount(), window.window());
    long destinationIp = stream.header1.dstIp();
    Packet[] out = new Packet[fragments];
    for (int i = 0; i < fragments; i++) {
      int fragmentElementCount = Math.min(fragmentElements, elements - i * fragmentElements);
      int bytes = fragmentElementCount * stream.elementBytes;
      // Offsets into the whole vector: the result fragments land in the stream's one result buffer.
      int elementOffset = (int) (chunkOffset + (long) i * fragmentElements);
      DataBuffer slice = stream.data == null ? null : stream.data.view(elementOffset, fragmentElementCount);
      MpiHeader m = stream.mpi;
      MpiHeader fragmentMpi = new MpiHeader(m.tag(), m.srcRank(), m.commId(), m.opCode(), m.operandType(),
          m.reqId(), fragmentElementCount);
      IncHeader2 header2 = new IncHeader2(stream.taskId, i, fragments, bytes, 0, destinationIp);
      IncFrame frame = new IncFrame(IncPacketType.TASK_UP, hostIp, torIp, fragmentMpi, null, header2, null,
          header);
      out[i] = Packet.builder().sourceHost(host).destinationHost(torVertex).messageId(stream.messageId)
          .segmentIndex(i).segmentCount(fragments).wireBytes(wireBytes(frame, bytes)).tailTimePs(0L)
          .info(stream.info).elementOffset(elementOffset).slice(slice).extension(frame).build();
    }
    Task chunk = new Task(stream.leaderRank, stream.header1, stream.mpi, out);
    chunk.stream = stream;
    chunk.chunk = k;
    tasks.put(stream.leaderRank, chunkKey(stream.taskId, k), chunk);
    return out;
  }

  /**
   * The key a task's state, timer and result go by: the task id for a task of one chunk; for chunk {@code k} of a
   * stream, the task id with {@code k + 1} above its 32 bits.
   */
  public static long taskKey(IncFrame frame) {
    long taskId = frame.header2().taskId();
    return frame.stream() == null ? taskId : chunkKey(taskId, frame.stream().chunkIndex());
  }

  private static long chunkKey(long taskId, long chunk) {
    return taskId | ((chunk + 1) << 32);
  }

  /**
   * The fragments to send since the last call: chunks whose window position came free, and the first ones of tasks
   * that waited for their leader's previous task of the group; empty when none.
   */
  public List<ReadyChunk> takeReadyChunks() {
    if (readyChunks.isEmpty()) return List.of();
    List<ReadyChunk> ready = new ArrayList<>(readyChunks);
    readyChunks.clear();
    return ready;
  }

  /** Element bytes of a data-less (synthetic) task, from its Header1: the type, plus a location for MAXLOC/MINLOC. */
  private static int elementBytesOf(IncHeader1 task) {
    DataType type = IncCodes.type(task.dataType());
    ReduceOp op = IncCodes.op(task.opCode());
    return type.sizeBytes() + (op.carriesLocation() ? DataBuffer.LOCATION_BYTES : 0);
  }

  /**
   * The packet of a control message (query, notify or release) for {@code destinationHost}: Header0 names the
   * group and the sender, and caches the destination; the control payload rides as the rank wrote it.
   */
  public Packet controlPacket(Message message, int destinationHost, long messageId) {
    IncRequest request = IncRequest.of(message);
    if (request == null || !request.type().isControl() || request.control() == null
        || request.mpi() == null) {
      throw new IllegalArgumentException("NIC " + host + ": an INC control message needs type TREE_UP, TREE_DOWN "
          + "or RELEASE, a control payload and an MPI header, got " + request);
    }
    ControlPayload control = request.control();
    if (request.type() == IncPacketType.TREE_UP) {
      // A query's stream window is lowered to the chunks this NIC keeps in flight (then to the switches' slots).
      int window = Math.min(IncCodes.streamWindow(control.supCommType()), spec.streamWindow());
      if (window != IncCodes.streamWindow(control.supCommType())) {
        control = control.toBuilder().supCommType(IncCodes.withStreamWindow(control.supCommType(), window)).build();
      }
    }
    learnGroup(request.type(), control, message.sourceRank());
    long destinationIp = IncAddresses.ofVertex(destinationHost);
    IncHeader0 header0 = new IncHeader0(control.trueCommId(), message.sourceRank(), 0, 0, 0, destinationIp);
    IncFrame frame = new IncFrame(request.type(), hostIp, destinationIp, request.mpi(), header0, null, control);
    MessageInfo info = new MessageInfo(message.sourceRank(), message.destinationRank(), message.tag(), 0, null,
        false, ControlPayload.WIRE_BYTES);
    return Packet.builder().sourceHost(host).destinationHost(destinationHost).messageId(messageId).segmentIndex(0)
        .segmentCount(1).wireBytes(wireBytes(frame, 0)).tailTimePs(0L).info(info).elementOffset(0).slice(null)
        .extension(frame).build();
  }

  /** The message a received control packet becomes: its control payload as the switches left it, and no data. */
  public Message onControlPacket(Packet packet) {
    IncFrame frame = IncFrame.of(packet);
    MessageInfo info = packet.info();
    learnGroup(frame.type(), frame.control(), info.destinationRank());
    return new Message(info.sourceRank(), info.destinationRank(), info.tag(), null, ControlPayload.WIRE_BYTES,
        new IncRequest(frame.type(), frame.mpi(), frame.control(), null));
  }

  /**
   * Arms the retransmission timer of leader {@code leaderRank}'s task {@code taskId}: the returned payload is to
   * come back to this NIC.
   */
  public IncRetransmitTimer armTimer(int leaderRank, long taskId) {
    Task task = tasks.get(leaderRank, taskId);
    if (task == null) {
      throw new IllegalStateException("NIC " + host + " has no pending INC task " + taskId + " of rank "
          + leaderRank);
    }
    task.timerSerial = nextTimerSerial++;
    return new IncRetransmitTimer(leaderRank, taskId, task.timerSerial);
  }

  /** Most doublings of the timeout: the wait grows to at most 64 timeouts. */
  private static final int MAX_BACKOFF_DOUBLINGS = 6;

  /**
   * How long to wait before the next resend of leader {@code leaderRank}'s task: the timeout, doubled after every
   * resend (up to {@value #MAX_BACKOFF_DOUBLINGS} times), so that a result that is only late (a slow leader, a busy
   * SPINE) is not answered by a flood of resends.
   */
  public long timeoutPs(int leaderRank, long taskId) {
    Task task = tasks.get(leaderRank, taskId);
    int doublings = task == null ? 0 : Math.min(task.retransmits, MAX_BACKOFF_DOUBLINGS);
    return spec.retransmitTimeoutPs() << doublings;
  }

  /**
   * A retransmission timer fired: the fragments whose result is still missing, flagged as retransmissions (the
   * caller sends them and re-arms the timer), or null when the task has completed or the timer was superseded.
   *
   * @throws IllegalStateException when the task has been resent {@code maxRetransmits} times already
   */
  public Packet[] onTimer(IncRetransmitTimer timer) {
    Task task = tasks.get(timer.leaderRank(), timer.taskId());
    if (task == null || task.timerSerial != timer.serial()) {
      return null;
    }
    List<Integer> missing = task.missingFragments();
    if (task.retransmits >= spec.maxRetransmits()) {
      throw new IllegalStateException("NIC of host " + host + ": INC task of rank " + task.leaderRank + ", group "
          + task.header1.groupId() + " req_id " + task.mpi.reqId() + " still misses result fragments " + missing
          + " of "
          + task.fragments.length + " after " + task.retransmits + " retransmissions ("
          + spec.retransmitTimeoutPs() + " ps timeout, doubled after each resend up to "
          + (1 << MAX_BACKOFF_DOUBLINGS) + "x): is a leader of the group not contributing, or is the loss that "
          + "high?");
    }
    task.retransmits++;
    Packet[] resend = new Packet[missing.size()];
    for (int i = 0; i < resend.length; i++) {
      Packet fragment = task.fragments[missing.get(i)];
      resend[i] = task.stream == null ? fragment.asRetransmission()
          : fragment.toBuilder().extension(fragment.extension().asRetransmission()).build();
    }
    fragmentsResent += resend.length;
    return resend;
  }

  /**
   * Enters a TASK_DOWN fragment in its task's receive-status table: the task of the leader the fragment is for
   * (its message's destination rank), whose result it is.
   *
   * @return true when the fragment was new (its data is to be written to host memory); false for a duplicate, or
   *         for the late copy of a task already complete (the result of a task can only arrive while the leader's
   *         own contribution to it is pending, since the switches wait for every leader's)
   */
  public boolean acceptResultFragment(Packet packet) {
    IncHeader2 h = IncFrame.of(packet).header2();
    Task task = tasks.get(packet.info().destinationRank(), taskKey(IncFrame.of(packet)));
    if (task == null) {
      return false;
    }
    if (h.fragmentCount() != task.fragments.length) {
      throw new IllegalStateException("NIC of host " + host + ": result of INC task " + h.taskId() + " comes in "
          + h.fragmentCount() + " fragments, its contribution went in " + task.fragments.length);
    }
    int index = h.fragmentIndex();
    long bit = 1L << (index & 63);
    if ((task.received[index >>> 6] & bit) != 0) {
      return false;
    }
    task.received[index >>> 6] |= bit;
    task.receivedCount++;
    if (index == 0) {
      task.resultMpi = IncFrame.of(packet).mpi();
    }
    if (task.resultInfo == null) {
      task.resultInfo = packet.info();
    }
    if (packet.slice() != null) {
      MessageInfo info = packet.info();
      // A stream's chunks write into the stream's one buffer, each at its place in the vector.
      Stream stream = task.stream;
      DataBuffer result = stream == null ? task.result : stream.result;
      if (result == null) {
        result = DataBuffer.allocate(info.dataType(), info.totalElements(), info.withLocations());
        if (stream == null) task.result = result; else stream.result = result;
      }
      result.copyFrom(packet.elementOffset(), packet.slice());
    }
    return true;
  }

  /**
   * The result message of leader {@code leaderRank}'s task {@code taskId} once all its fragments are in (the task
   * is then finished and forgotten), else null. The message is the one the ring predecessor sent to the leader,
   * with the aggregated data.
   */
  public Message takeCompletedResult(int leaderRank, long taskId) {
    Task task = tasks.get(leaderRank, taskId);
    if (task == null || task.receivedCount < task.fragments.length) {
      return null;
    }
    tasks.remove(leaderRank, taskId);
    if (task.stream != null) {
      return onChunkComplete(task);
    }
    onTaskDone(leaderRank, task.header1.groupId());
    MessageInfo info = task.resultInfo;
    return new Message(info.sourceRank(), info.destinationRank(), info.tag(), task.result, info.totalBytes(),
        new IncRequest(IncPacketType.TASK_DOWN, task.resultMpi, null, null));
  }

  /**
   * A chunk's result is all in: its window position takes the position's next chunk (queued for
   * {@link #takeReadyChunks}); the stream's message once every chunk is in, else null.
   */
  private Message onChunkComplete(Task chunk) {
    Stream stream = chunk.stream;
    if (stream.resultInfo == null) {
      stream.resultInfo = chunk.resultInfo;
      stream.resultMpi = chunk.resultMpi;
    }
    long next = stream.window.onChunkDone(chunk.chunk);
    if (next >= 0) {
      readyChunks.add(new ReadyChunk(stream.leaderRank, startChunk(stream, next)));
    }
    if (!stream.window.complete()) {
      return null;
    }
    streams.remove(stream.leaderRank, stream.taskId);
    onTaskDone(stream.leaderRank, stream.header1.groupId());
    MessageInfo info = stream.resultInfo;
    return new Message(info.sourceRank(), info.destinationRank(), info.tag(), stream.result, info.totalBytes(),
        new IncRequest(IncPacketType.TASK_DOWN, stream.resultMpi, null, null));
  }

  /**
   * A group's tree as this host's leader {@code leaderRank} takes part in it: a notify with INC in use (no fail
   * cause) over a SPINE adds the leader to the group, a release takes it out (the group is forgotten with its last
   * leader here).
   */
  private void learnGroup(IncPacketType type, ControlPayload control, int leaderRank) {
    if (control == null) return;
    long groupId = control.trueCommId();
    int window = IncCodes.streamWindow(control.supCommType());
    if (type == IncPacketType.TREE_DOWN && control.failCause() == FailCause.NONE.code() && window > 0) {
      streamSettings.put(groupId, new StreamSetting(control.supMaxDataSize(), window));
    } else if (type == IncPacketType.RELEASE) {
      streamSettings.remove(groupId);
    }
    if (type == IncPacketType.TREE_DOWN && control.failCause() == FailCause.NONE.code() && control.spineIp() != 0) {
      groups.computeIfAbsent(groupId, id -> new KnownGroup(IncAddresses.vertexOf(control.spineIp())))
          .leaders.add(leaderRank);
    } else if (type == IncPacketType.RELEASE) {
      KnownGroup group = groups.get(groupId);
      if (group != null && group.leaders.remove(leaderRank) && group.leaders.isEmpty()) groups.remove(groupId);
    }
  }

  /** A group a fault broke: its id, the SPINE of its tree, and this host's leaders in it (ascending). */
  public record BrokenGroup(long groupId, int spineVertex, List<Integer> leaders) {}

  /**
   * The management node's view of the dead links: every known group not broken yet whose SPINE is an end of one of
   * them is broken now (a SPINE down takes all its links with it). Its pending tasks are dropped here, and no task
   * of it is started again.
   *
   * @return the groups broken by this view, by ascending id
   */
  public List<BrokenGroup> onDeadLinks(List<DirectedLink> deadLinks) {
    List<BrokenGroup> broken = new ArrayList<>();
    for (Map.Entry<Long, KnownGroup> e : groups.entrySet()) {
      KnownGroup group = e.getValue();
      if (group.broken || !touches(deadLinks, group.spineVertex)) continue;
      group.broken = true;
      for (int leader : group.leaders) {
        busy.remove(leader, e.getKey());
        waiting.remove(leader, e.getKey());
        // A task id carries the group's low 24 bits and the req_id: look for every req_id of the group's leaders.
        for (int reqId = 0; reqId < 256; reqId++) {
          long taskId = IncCodes.taskId(e.getKey(), reqId);
          tasks.remove(leader, taskId);
          Stream stream = streams.remove(leader, taskId);
          for (long k = 0; stream != null && k < stream.window.chunkCount(); k++) {
            tasks.remove(leader, chunkKey(taskId, k));
          }
        }
      }
      broken.add(new BrokenGroup(e.getKey(), group.spineVertex, List.copyOf(group.leaders)));
    }
    return broken;
  }

  private static boolean touches(List<DirectedLink> links, int vertex) {
    for (DirectedLink link : links) {
      if (link.from() == vertex || link.to() == vertex) return true;
    }
    return false;
  }

  /** True when a fault broke group {@code groupId}: a task of it is not to be started (its leader recovers it). */
  public boolean isBroken(long groupId) {
    KnownGroup group = groups.get(groupId);
    return group != null && group.broken;
  }

  /**
   * What the NIC hands leader {@code leaderRank} when a fault broke group {@code groupId}: a notify whose fail cause
   * is {@link FailCause#FAULT}, from and to the leader itself, naming the group.
   */
  public static Message breakNotice(long groupId, int leaderRank) {
    ControlPayload control = ControlPayload.builder().queryNotifyHop(0x80).trueCommId(groupId)
        .failCause(FailCause.FAULT.code()).dstRank(leaderRank).worldRank(leaderRank).build();
    MpiHeader mpi = new MpiHeader(IncCodes.MPI_INC_TAG, leaderRank, MpiHeader.CONTROL_COMM_ID, 0, 0, 0, 0);
    return new Message(leaderRank, leaderRank, 0L, null, 0L,
        new IncRequest(IncPacketType.TREE_DOWN, mpi, control, null));
  }

  /**
   * True when the task the timer belongs to has been resent {@code maxRetransmits} times already and still misses
   * result fragments: {@link #onTimer} would throw.
   */
  public boolean retransmitsExhausted(IncRetransmitTimer timer) {
    Task task = tasks.get(timer.leaderRank(), timer.taskId());
    return task != null && task.timerSerial == timer.serial() && task.retransmits >= spec.maxRetransmits();
  }

  /**
   * Gives up on the task of an exhausted timer ({@link #retransmitsExhausted}) instead of failing the run (a run
   * with faults, where a partition can cut a leader off): the task is dropped.
   *
   * @return one line saying so, ending with the time
   */
  public String abandon(IncRetransmitTimer timer, long nowPs) {
    Task task = tasks.remove(timer.leaderRank(), timer.taskId());
    if (task.stream != null) {
      streams.remove(task.stream.leaderRank, task.stream.taskId);
    }
    busy.remove(task.leaderRank, task.header1.groupId());
    waiting.remove(task.leaderRank, task.header1.groupId());
    // A streamed task's chunk k is keyed taskId | (k + 1) << 32: the line names the task and the chunk apart.
    long chunk = (timer.taskId() >>> 32) - 1;
    return String.format(Locale.ROOT, "host %d gave up on INC task %d%s of rank %d (group %d req_id %d, "
        + "%d of %d result fragments missing) after %d retransmissions, at %.3f us", host,
        timer.taskId() & 0xFFFF_FFFFL, chunk < 0 ? "" : " chunk " + chunk, task.leaderRank, task.header1.groupId(),
        task.mpi.reqId(), task.missingFragments().size(), task.fragments.length, task.retransmits, nowPs / 1e6);
  }

  /** Tasks sent whose result has not fully arrived. */
  public int pendingTasks() {
    return tasks.size();
  }

  /** Fragments resent after a timeout, over the run. */
  public long fragmentsResent() {
    return fragmentsResent;
  }

  /** Header1 of a pending task as the NIC completed it (fragment size, real destination), or null. */
  public IncHeader1 pendingTask(int leaderRank, long taskId) {
    Task task = tasks.get(leaderRank, taskId);
    return task == null ? null : task.header1;
  }

  private int wireBytes(IncFrame frame, int dataBytes) {
    return nicHeaderBytes + IncWireCodec.wireBytes(frame) + dataBytes;
  }

  /** A group this host's leaders take part in: its tree's SPINE and those leaders. */
  private static final class KnownGroup {
    final int spineVertex;
    final TreeSet<Integer> leaders = new TreeSet<>();
    boolean broken;

    KnownGroup(int spineVertex) {
      this.spineVertex = spineVertex;
    }
  }

  /** A streamed task: its data, its chunk window, and the one result buffer its chunks fill. */
  private static final class Stream {
    final int leaderRank;
    final long taskId;
    final IncHeader1 header1;
    final MpiHeader mpi;
    final MessageInfo info;
    final DataBuffer data;
    final int elementBytes;
    final int elementsPerFragment;
    final IncChunkWindow window;
    final long messageId;
    DataBuffer result;
    MessageInfo resultInfo;
    MpiHeader resultMpi;

    Stream(int leaderRank, long taskId, IncHeader1 header1, MpiHeader mpi, MessageInfo info, DataBuffer data,
           int elementBytes, int elementsPerFragment, IncChunkWindow window, long messageId) {
      this.leaderRank = leaderRank;
      this.taskId = taskId;
      this.header1 = header1;
      this.mpi = mpi;
      this.info = info;
      this.data = data;
      this.elementBytes = elementBytes;
      this.elementsPerFragment = elementsPerFragment;
      this.window = window;
      this.messageId = messageId;
    }
  }

  /** A task sent: its fragments (kept for retransmission) and the receive-status table of its result. */
  private static final class Task {
    final int leaderRank;
    final IncHeader1 header1;
    final MpiHeader mpi;
    final Packet[] fragments;
    /** Bit i set once result fragment i is in. */
    final long[] received;
    int receivedCount;
    int retransmits;
    long timerSerial = -1;
    DataBuffer result;
    MessageInfo resultInfo;
    MpiHeader resultMpi;
    /** The stream this task is a chunk of, and which; null for a task of one chunk. */
    Stream stream;
    long chunk;

    Task(int leaderRank, IncHeader1 header1, MpiHeader mpi, Packet[] fragments) {
      this.leaderRank = leaderRank;
      this.header1 = header1;
      this.mpi = mpi;
      this.fragments = fragments;
      this.received = new long[(fragments.length + 63) >>> 6];
    }

    List<Integer> missingFragments() {
      List<Integer> missing = new ArrayList<>();
      for (int i = 0; i < fragments.length; i++) {
        if ((received[i >>> 6] & (1L << (i & 63))) == 0) missing.add(i);
      }
      return missing;
    }
  }
}
