package io.fabemu.core.ethernet;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.ethernet.AddressTable.Entry;
import io.fabemu.core.ethernet.AddressTable.Registration;
import org.junit.jupiter.api.Test;

class AddressTableTest {
  @Test
  void registersUpdatesAndLooksUpAsTheSeedsFigureTenSays() {
    AddressTable table = new AddressTable();
    long mac7 = MacAddress.ofNode(7);
    long mac3 = MacAddress.ofNode(3);
    assertThat(table.lookup(mac7)).isNull();
    assertThat(table.register(mac7, 7, -1)).isEqualTo(Registration.ADDED);
    assertThat(table.register(mac7, 7, -1)).isEqualTo(Registration.UNCHANGED);
    assertThat(table.register(mac7, 7, 12)).isEqualTo(Registration.UPDATED);
    assertThat(table.register(mac3, 3, -1)).isEqualTo(Registration.ADDED);
    assertThat(table.lookup(mac7)).isEqualTo(new Entry(mac7, 7, 12));
    // In MAC order, whatever the order of registration.
    assertThat(table.entries()).containsExactly(new Entry(mac3, 3, -1), new Entry(mac7, 7, 12));
    assertThat(table.lookup(MacAddress.unknown(7))).isNull();
  }

  @Test
  void aRefreshTakesEveryViaFromTheNewView() {
    AddressTable table = new AddressTable();
    table.register(MacAddress.ofNode(1), 1, -1);
    table.register(MacAddress.ofNode(9), 9, 4);
    table.refresh(node -> node == 1 ? 8 : -1);
    assertThat(table.entries()).containsExactly(new Entry(MacAddress.ofNode(1), 1, 8),
        new Entry(MacAddress.ofNode(9), 9, -1));
    assertThat(table.size()).isEqualTo(2);
  }
}
