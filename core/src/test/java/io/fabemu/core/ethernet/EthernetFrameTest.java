package io.fabemu.core.ethernet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class EthernetFrameTest {
  private static final long NODE5 = MacAddress.ofNode(5);
  private static final long EXT2 = MacAddress.ofExternalHost(2);

  @Test
  void encodesTheFieldsInOrderWithTheCrc32OfEverythingBeforeTheFcs() {
    byte[] payload = FramePayloads.of(NODE5, 3, 100, 42);
    byte[] bytes = new EthernetFrame(EXT2, NODE5, EthernetFrame.ETHER_TYPE, payload).encode();
    assertThat(bytes).hasSize(14 + 100 + 4);
    assertThat(Arrays.copyOfRange(bytes, 0, 6)).containsExactly(2, 0, 0, 1, 0, 2);
    assertThat(Arrays.copyOfRange(bytes, 6, 12)).containsExactly(2, 0, 0, 0, 0, 5);
    assertThat(bytes[12]).isEqualTo((byte) 0x88);
    assertThat(bytes[13]).isEqualTo((byte) 0xB5);
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 4);
    long fcs = (bytes[114] & 0xFFL) | (bytes[115] & 0xFFL) << 8 | (bytes[116] & 0xFFL) << 16
        | (bytes[117] & 0xFFL) << 24;
    assertThat(fcs).isEqualTo(crc.getValue());
  }

  @Test
  void decodingInvertsEncodingAndShortPayloadsComeBackPadded() {
    EthernetFrame frame = new EthernetFrame(EXT2, NODE5, EthernetFrame.ETHER_TYPE, FramePayloads.of(NODE5, 7, 512, 1));
    assertThat(EthernetFrame.decode(frame.encode())).isEqualTo(frame);
    byte[] shortPayload = FramePayloads.of(NODE5, 1, 20, 1);
    byte[] bytes = new EthernetFrame(EXT2, NODE5, EthernetFrame.ETHER_TYPE, shortPayload).encode();
    assertThat(bytes).hasSize(EthernetFrame.MIN_FRAME_BYTES);
    EthernetFrame back = EthernetFrame.decode(bytes);
    assertThat(back.payload()).hasSize(46);
    assertThat(Arrays.copyOf(back.payload(), 20)).isEqualTo(shortPayload);
    assertThat(FramePayloads.verify(NODE5, back.payload(), 1)).isTrue();
  }

  @Test
  void refusesWhatIsNoFrameOrFailsItsFcs() {
    assertThatThrownBy(() -> EthernetFrame.decode(null)).isInstanceOf(EthernetFormatException.class)
        .hasMessage("no frame (null)");
    assertThatThrownBy(() -> EthernetFrame.decode(new byte[63])).isInstanceOf(EthernetFormatException.class)
        .hasMessage("a frame has 64..1518 bytes, got 63");
    assertThatThrownBy(() -> EthernetFrame.decode(new byte[1519])).isInstanceOf(EthernetFormatException.class)
        .hasMessage("a frame has 64..1518 bytes, got 1519");
    byte[] bytes = new EthernetFrame(EXT2, NODE5, EthernetFrame.ETHER_TYPE, new byte[64]).encode();
    for (int i = 0; i < bytes.length; i++) {
      byte[] flipped = bytes.clone();
      flipped[i] ^= 0x10;
      assertThat(EthernetFrame.fcsMatches(flipped)).as("bit flipped in byte " + i).isFalse();
      assertThatThrownBy(() -> EthernetFrame.decode(flipped)).isInstanceOf(EthernetFormatException.class)
          .hasMessageContaining("does not match its CRC-32");
    }
    assertThatThrownBy(() -> new EthernetFrame(EXT2, NODE5, 0x05DC, new byte[46]))
        .hasMessage("EtherType must be in 0x0600..0xffff, got 0x5dc");
    assertThatThrownBy(() -> new EthernetFrame(1L << 48, NODE5, EthernetFrame.ETHER_TYPE, new byte[46]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EthernetFrame(EXT2, NODE5, EthernetFrame.ETHER_TYPE, new byte[1501]))
        .hasMessage("payload must be 0..1500 bytes, got 1501");
  }

  @Test
  void refusesAnEtherTypeThatIsAnIeee8023Length() {
    byte[] bytes = new EthernetFrame(EXT2, NODE5, EthernetFrame.ETHER_TYPE, new byte[46]).encode();
    bytes[12] = 0x05;
    bytes[13] = (byte) 0xDC;
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, 60);
    for (int i = 0; i < 4; i++) bytes[60 + i] = (byte) (crc.getValue() >>> (8 * i));
    assertThatThrownBy(() -> EthernetFrame.decode(bytes))
        .hasMessage("frame of 64 bytes: EtherType 0x5dc is an 802.3 length, not an Ethernet II type");
  }

  @Test
  void macsAndPayloadsAreWhatTheirOwnersSay() {
    assertThat(MacAddress.format(MacAddress.ofNode(63))).isEqualTo("02:00:00:00:00:3f");
    assertThat(MacAddress.format(MacAddress.ofExternalHost(1))).isEqualTo("02:00:00:01:00:01");
    assertThat(MacAddress.format(MacAddress.unknown(0x1234))).isEqualTo("02:00:00:02:12:34");
    assertThat(MacAddress.nodeOf(MacAddress.ofNode(63))).isEqualTo(63);
    assertThat(MacAddress.nodeOf(MacAddress.ofExternalHost(1))).isEqualTo(-1);
    assertThat(MacAddress.externalHostOf(MacAddress.ofExternalHost(1))).isEqualTo(1);
    assertThat(MacAddress.externalHostOf(MacAddress.unknown(1))).isEqualTo(-1);
    byte[] payload = FramePayloads.of(NODE5, 9, 300, 42);
    assertThat(FramePayloads.sequenceOf(payload)).isEqualTo(9);
    assertThat(FramePayloads.verify(NODE5, payload, 42)).isTrue();
    assertThat(FramePayloads.verify(NODE5, payload, 43)).isFalse();
    assertThat(FramePayloads.verify(MacAddress.ofNode(6), payload, 42)).isFalse();
    payload[200] ^= 1;
    assertThat(FramePayloads.verify(NODE5, payload, 42)).isFalse();
    assertThat(FramePayloads.of(NODE5, 9, 300, 42)).isEqualTo(FramePayloads.of(NODE5, 9, 300, 42))
        .isNotEqualTo(FramePayloads.of(NODE5, 10, 300, 42));
  }
}
