package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.output.ResultsWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code fabemu run} of embedded-ring algorithms on a 3 x 2 prism, on the real runner: the printed comparison, the
 * per-link table with ports, the rings object with each algorithm's used and idle links, the prism drawing and the
 * report's sections.
 */
class PrismRingsEndToEndTest extends CliTestBase {

  private static final String SCENARIO = """
      name = prism-tiny
      seed = 3
      topology {
        kind = prism
        nodes-per-layer = 3
        layers = 2
        intra-layer { bandwidth = 100 Gbps, latency = 100 ns }
        inter-layer { bandwidth = 100 Gbps, latency = 100 ns }
      }
      workload {
        collective = allreduce
        algorithms = [single-ring, multi-ring, line]
        sizes = [64 KiB]
        datatype = float32
        op = sum
        iterations = 1
        warmup = 0
      }
      """;

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void shouldReportEachAlgorithmsLinksTheComparisonAndTheDrawing() throws Exception {
    Path scenario = dir.resolve("prism.conf");
    Files.writeString(scenario, SCENARIO);
    Path out = dir.resolve("out");

    int code = fabemu("run", scenario.toString(), "--out", out.toString(), "--no-progress");

    assertThat(code).as(stderr).isZero();
    assertThat(stdout).contains("# fabemu embedded-ring comparison: busbw (GB/s) and ratio to single-ring\n"
        + "# Size                 single-ring            multi-ring                  line\n");
    assertThat(stdout).containsPattern("\n65536 +[0-9.]+ \\(1\\.00x\\) +[0-9.]+ \\([0-9.]+x\\) +[0-9.]+ "
        + "\\([0-9.]+x\\)\n");

    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    // 6 hosts of 8 ports each: 48 directed links, each with its port and place among its parallel links.
    JsonNode links = json.get("links");
    assertThat(links).hasSize(48);
    Map<String, Long> bytesByPort = new HashMap<>();
    for (JsonNode l : links) {
      assertThat(l.get("port").isInt()).isTrue();
      bytesByPort.put(l.get("fromDevice").asInt() + ":" + l.get("port").asInt(), l.get("bytes").asLong());
    }
    assertThat(bytesByPort).hasSize(48);
    JsonNode first = links.get(0);
    assertThat(List.of(first.get("from").asText(), first.get("to").asText(), first.get("port").asText(),
        first.get("parallel").asText(), first.get("parallelLinks").asText()))
        .containsExactly("host0", "host1", "0", "0", "3");
    assertThat(json.get("linksNote").asText()).contains("whole run");

    JsonNode rings = json.get("rings");
    assertThat(rings.get("source").asText()).isEqualTo("face-rule");
    assertThat(rings.get("summary").asText()).isEqualTo("6 directed rings of 6 hosts from the face rule, arc-disjoint");
    assertThat(rings.get("warnings")).isEmpty();
    assertThat(rings.get("rings")).hasSize(6);
    assertThat(rings.get("rings").get(0)).hasSize(6);
    JsonNode algorithms = rings.get("algorithms");
    assertThat(algorithms).hasSize(3);
    // single ring: 6 hops; multi-ring: 6 rings x 6 hops, each on a link of its own (arc-disjoint); line: 5 hops
    // both ways.
    int[] used = {6, 36, 10};
    String[] names = {"single-ring", "multi-ring", "line"};
    for (int a = 0; a < 3; a++) {
      JsonNode alg = algorithms.get(a);
      assertThat(alg.get("algorithm").asText()).isEqualTo(names[a]);
      assertThat(alg.get("usedLinks").asInt()).isEqualTo(used[a]);
      assertThat(alg.get("idleLinks").asInt()).isEqualTo(48 - used[a]);
      assertThat(alg.get("used")).hasSize(used[a]);
      for (JsonNode l : alg.get("used")) {
        // A link a ring takes carried bytes in the run; each used link carries exactly one ring here.
        assertThat(bytesByPort.get(l.get("fromDevice").asInt() + ":" + l.get("port").asInt())).isPositive();
        assertThat(l.get("rings")).hasSize(1);
      }
      for (JsonNode l : alg.get("idle")) assertThat(l.has("rings")).isFalse();
    }
    // The multi-ring's hops that k rings share take min(k, links) different links: here every arc pair with
    // rings on it has as many used links as rings.
    Map<String, Set<Integer>> portsByHop = new HashMap<>();
    Map<String, Integer> ringsByHop = new HashMap<>();
    for (JsonNode l : algorithms.get(1).get("used")) {
      String hop = l.get("from").asText() + ">" + l.get("to").asText();
      portsByHop.computeIfAbsent(hop, k -> new HashSet<>()).add(l.get("port").asInt());
      ringsByHop.merge(hop, 1, Integer::sum);
      assertThat(l.get("parallel").asInt()).isLessThan(l.get("parallelLinks").asInt());
    }
    portsByHop.forEach((hop, ports) -> assertThat(ports).as(hop).hasSize(ringsByHop.get(hop)));
    assertThat(ringsByHop.values()).contains(2);

    String svg = Files.readString(out.resolve(ResultsWriter.LINKS_PRISM_FILE));
    assertThat(svg).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg");
    assertThat(count(svg, "<line ")).isEqualTo(48 + 1);
    long zero = bytesByPort.values().stream().filter(b -> b == 0).count();
    assertThat(count(svg, "class=\"unused\"")).isEqualTo((int) zero);
    String html = Files.readString(out.resolve(ResultsWriter.REPORT_FILE));
    assertThat(html).contains("id=\"links-prism\"").contains("id=\"ring-comparison\"")
        .contains("multi-ring: links its rings take (36 used, 12 idle)");
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
    return n;
  }
}
