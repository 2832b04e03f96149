package io.fabemu.archfixtures.nic;

import io.fabemu.archfixtures.switching.SwitchFixture;

/** A NIC class naming a switch class (the violation of "device families are independent"). */
public final class NicNamingASwitch {
  public SwitchFixture uplink;
}
