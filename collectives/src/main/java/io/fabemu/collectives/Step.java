package io.fabemu.collectives;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One step of a rank's {@link Schedule}. A step begins when the previous step's receives are all complete; it then
 * runs its local copies, posts its sends (payloads copied at that moment) and posts its receives. It is complete
 * when every receive has been applied. A view of the schedule's packed rows: each {@link #copy}, {@link #send} and
 * {@link #receive} call makes its record afresh (equal each time).
 */
public final class Step {
  private static final BufferId[] BUFFERS = BufferId.values();

  private final Schedule schedule;
  private final int index;

  Step(Schedule schedule, int index) {
    this.schedule = schedule;
    this.index = index;
  }

  public int copyCount() {
    return schedule.bound(index, 1) - schedule.bound(index, 0);
  }

  public LocalCopy copy(int i) {
    int e = entry(0, i, copyCount());
    return new LocalCopy(BUFFERS[schedule.field(e, 0)], schedule.field(e, 1), BUFFERS[schedule.field(e, 2)],
        schedule.field(e, 3), schedule.field(e, 4));
  }

  public int sendCount() {
    return schedule.bound(index, 2) - schedule.bound(index, 1);
  }

  public Transfer send(int i) {
    return transfer(entry(1, i, sendCount()));
  }

  public int receiveCount() {
    return schedule.bound(index, 3) - schedule.bound(index, 2);
  }

  public Transfer receive(int i) {
    return transfer(entry(2, i, receiveCount()));
  }

  private int entry(int part, int i, int count) {
    return schedule.bound(index, part) + Objects.checkIndex(i, count);
  }

  private Transfer transfer(int e) {
    int flags = schedule.field(e, 1);
    return new Transfer(schedule.field(e, 0), BUFFERS[flags & ScheduleBuilder.BUFFER_MASK], schedule.field(e, 2),
        schedule.field(e, 3), (flags & ScheduleBuilder.REDUCE) != 0, schedule.field(e, 4),
        (flags & ScheduleBuilder.INC) != 0);
  }

  @Override
  public String toString() {
    List<LocalCopy> copies = new ArrayList<>();
    for (int i = 0; i < copyCount(); i++) copies.add(copy(i));
    List<Transfer> sends = new ArrayList<>();
    for (int i = 0; i < sendCount(); i++) sends.add(send(i));
    List<Transfer> receives = new ArrayList<>();
    for (int i = 0; i < receiveCount(); i++) receives.add(receive(i));
    return "Step{copies=" + copies + ", sends=" + sends + ", receives=" + receives + "}";
  }
}
