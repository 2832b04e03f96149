package io.fabemu.app.member;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The member JVMs' heap as the pre-flight estimate takes it from FABEMU_MEMBER_JAVA_OPTS. */
class MemberJvmHeapTest {

  @Test
  void shouldTakeTheLastHeapOptionOfTheMembersOptions() {
    assertThat(MemberJvmHeap.bytes("-Xss2m -Xmx4g", 6L << 30)).isEqualTo(4L << 30);
    assertThat(MemberJvmHeap.bytes("-Xmx4g -XX:MaxHeapSize=512M", 6L << 30)).isEqualTo(512L << 20);
    assertThat(MemberJvmHeap.bytes(" -Xmx1073741824 ", 1)).isEqualTo(1L << 30);
    assertThat(MemberJvmHeap.bytes("-Xmx3072k", 1)).isEqualTo(3072L << 10);
    assertThat(MemberJvmHeap.bytes("-Xmx2T", 1)).isEqualTo(2L << 40);
  }

  @Test
  void shouldFallBackToThisJvmsHeapWithoutAHeapOption() {
    assertThat(MemberJvmHeap.bytes(null, 6L << 30)).isEqualTo(6L << 30);
    assertThat(MemberJvmHeap.bytes("", 6L << 30)).isEqualTo(6L << 30);
    assertThat(MemberJvmHeap.bytes("-XX:+UseSerialGC -Xms4g", 6L << 30)).isEqualTo(6L << 30);
  }

  @Test
  void shouldIgnoreMalformedOrOverflowingHeapOptions() {
    assertThat(MemberJvmHeap.heapOption(List.of("-Xmx4x", "-Xmx", "-Xmxg"))).isEqualTo(OptionalLong.empty());
    assertThat(MemberJvmHeap.heapOption(List.of("-Xmx1g", "-Xmx99999999999999999T"))).hasValue(1L << 30);
    assertThat(MemberJvmHeap.heapOption(List.of("-Xmx1g", "-Xmx9999999999999999999"))).hasValue(1L << 30);
  }
}
