package io.fabemu.collectives;

import java.util.List;

/**
 * One step of a rank's {@link Schedule}. A step begins when the previous step's receives are all complete; it then
 * runs its local copies, posts its sends (payloads copied at that moment) and posts its receives. It is complete
 * when every receive has been applied. Immutable; the arrays are never exposed.
 */
public final class Step {
  private final LocalCopy[] copies;
  private final Transfer[] sends;
  private final Transfer[] receives;

  Step(List<LocalCopy> copies, List<Transfer> sends, List<Transfer> receives) {
    this.copies = copies.toArray(new LocalCopy[0]);
    this.sends = sends.toArray(new Transfer[0]);
    this.receives = receives.toArray(new Transfer[0]);
  }

  public int copyCount() {
    return copies.length;
  }

  public LocalCopy copy(int index) {
    return copies[index];
  }

  public int sendCount() {
    return sends.length;
  }

  public Transfer send(int index) {
    return sends[index];
  }

  public int receiveCount() {
    return receives.length;
  }

  public Transfer receive(int index) {
    return receives[index];
  }

  @Override
  public String toString() {
    return "Step{copies=" + List.of(copies) + ", sends=" + List.of(sends) + ", receives=" + List.of(receives) + "}";
  }
}
