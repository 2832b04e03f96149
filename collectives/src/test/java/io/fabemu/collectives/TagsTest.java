package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TagsTest {

  @Test
  void shouldDecodeEveryFieldWhenEncoded() {
    long tag = Tags.tag(123_456_789L, Tags.channel(15, Tags.MAX_ROUND, 15));
    assertThat(Tags.opSequence(tag)).isEqualTo(123_456_789L);
    assertThat(Tags.phase(tag)).isEqualTo(15);
    assertThat(Tags.round(tag)).isEqualTo(Tags.MAX_ROUND);
    assertThat(Tags.index(tag)).isEqualTo(15);
    assertThat(Tags.tag(1, Tags.channel(0, 0, 0))).isNotEqualTo(Tags.tag(0, Tags.channel(0, 0, 0)));
  }

  @Test
  void shouldRejectChannelWhenAFieldOverflows() {
    assertThatThrownBy(() -> Tags.channel(16, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Tags.channel(0, Tags.MAX_ROUND + 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Tags.channel(0, 0, 16)).isInstanceOf(IllegalArgumentException.class);
  }
}
