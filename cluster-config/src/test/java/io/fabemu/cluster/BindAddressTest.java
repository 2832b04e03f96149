package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/**
 * A member listens on the address it was given and on no other: one started on 127.0.0.2 accepts connections there
 * and refuses them on 127.0.0.1 (the same port), so a member on a multi-homed machine is not reachable through an
 * interface its operator did not name (the security promise of docs/reliability.md; Artery's own default binds the canonical host,
 * fabemu sets it explicitly).
 */
class BindAddressTest {
  private static final int CONNECT_TIMEOUT_MS = 2_000;

  @Test
  void shouldListenOnlyOnTheConfiguredAddress() throws IOException {
    Config config = ConfigFactory.empty()
        .withValue("pekko.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef("127.0.0.2"))
        .withValue("pekko.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(0));
    try (EmbeddedCluster member = EmbeddedCluster.start(config)) {
      int port = member.address().getPort().get();
      assertThat(member.address().getHost()).contains("127.0.0.2");
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.2", port), CONNECT_TIMEOUT_MS);
        assertThat(socket.isConnected()).isTrue();
      }
      assertThatThrownBy(() -> {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MS);
        }
      }).isInstanceOf(ConnectException.class);
    }
  }
}
