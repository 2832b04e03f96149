package io.fabemu.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A stand-in for the one request of the Kubernetes API that Pekko's kubernetes-api discovery makes:
 * {@code GET /api/v1/namespaces/NS/pods?labelSelector=S} over HTTPS with a bearer token, answered with a PodList of
 * the pods {@link #putPod} added (running, each with its IP and its container port named {@code management}) when
 * the selector is this cluster's, else an empty list, as the real API filters. Its certificate (made with the JDK's
 * keytool, valid for 127.0.0.1) is its own CA; {@link #caFile}, {@link #tokenFile} and {@link #namespaceFile} are
 * what a pod's service account mounts.
 *
 * <p>Requests it cannot answer (wrong path, method or token) are answered 404 or 401 and counted in
 * {@link #rejected}, so a test can tell that discovery asked exactly as Kubernetes expects.
 */
final class StandInKubernetesApi implements AutoCloseable {
  static final String NAMESPACE = "fabemu-test";
  private static final String TOKEN = "stand-in-token-0123456789";
  private static final char[] STORE_PASSWORD = "stand-in".toCharArray();

  private record Pod(String ip, int managementPort, String component) {}

  private final Map<String, Pod> pods = new ConcurrentHashMap<>();
  private final List<String> rejected = new CopyOnWriteArrayList<>();
  private final AtomicInteger podListsServed = new AtomicInteger();
  private final String labelSelector;
  private final Path dir;
  private final HttpsServer server;
  private final ExecutorService executor;

  private StandInKubernetesApi(String labelSelector, Path dir, HttpsServer server, ExecutorService executor) {
    this.labelSelector = labelSelector;
    this.dir = dir;
    this.server = server;
    this.executor = executor;
  }

  /** Starts the API on 127.0.0.1 (a free port), listing pods that match {@code labelSelector}; files in dir. */
  static StandInKubernetesApi start(String labelSelector, Path dir) throws Exception {
    Path keyStore = dir.resolve("api.p12");
    keytool("-genkeypair", "-alias", "api", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=stand-in kubernetes api", "-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", keyStore.toString(), "-storepass", new String(STORE_PASSWORD));
    keytool("-exportcert", "-rfc", "-alias", "api", "-keystore", keyStore.toString(), "-storepass",
        new String(STORE_PASSWORD), "-file", dir.resolve("ca.crt").toString());
    // As Kubernetes mounts them: no trailing newline (Pekko uses the files' bytes as they are).
    Files.writeString(dir.resolve("token"), TOKEN);
    Files.writeString(dir.resolve("namespace"), NAMESPACE);

    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      store.load(in, STORE_PASSWORD);
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, STORE_PASSWORD);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);
    HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "stand-in-kubernetes-api");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    StandInKubernetesApi api = new StandInKubernetesApi(labelSelector, dir, server, executor);
    server.createContext("/", api::handle);
    server.start();
    return api;
  }

  private static void keytool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }

  /** Adds (or replaces) the running pod {@code name} with address {@code ip} and its management port. */
  void putPod(String name, String ip, int managementPort, String component) {
    pods.put(name, new Pod(ip, managementPort, component));
  }

  void removePod(String name) {
    pods.remove(name);
  }

  int port() {
    return server.getAddress().getPort();
  }

  Path caFile() {
    return dir.resolve("ca.crt");
  }

  Path tokenFile() {
    return dir.resolve("token");
  }

  Path namespaceFile() {
    return dir.resolve("namespace");
  }

  /** Requests answered with this cluster's pods. */
  int podListsServed() {
    return podListsServed.get();
  }

  /** The requests it refused, as {@code METHOD URI: why}. */
  List<String> rejected() {
    return List.copyOf(rejected);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      String request = exchange.getRequestMethod() + " " + exchange.getRequestURI();
      if (!"GET".equals(exchange.getRequestMethod())
          || !path.equals("/api/v1/namespaces/" + NAMESPACE + "/pods")) {
        rejected.add(request + ": not the pod list of namespace " + NAMESPACE);
        respond(exchange, 404, "{\"kind\":\"Status\",\"code\":404}");
        return;
      }
      if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        rejected.add(request + ": no or wrong bearer token");
        respond(exchange, 401, "{\"kind\":\"Status\",\"code\":401}");
        return;
      }
      String selector = query(exchange.getRequestURI().getRawQuery()).get("labelSelector");
      boolean ours = labelSelector.equals(selector);
      if (ours) podListsServed.incrementAndGet();
      respond(exchange, 200, podList(ours));
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> params = new HashMap<>();
    if (raw == null) return params;
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return params;
  }

  /** A PodList as the API writes it (the fields discovery reads, and a few it skips). */
  private String podList(boolean withPods) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode list = json.createObjectNode().put("kind", "PodList").put("apiVersion", "v1");
    list.putObject("metadata").put("resourceVersion", "1");
    ArrayNode items = list.putArray("items");
    if (withPods) {
      pods.forEach((name, pod) -> {
        ObjectNode item = items.addObject();
        ObjectNode metadata = item.putObject("metadata").put("name", name).put("namespace", NAMESPACE);
        metadata.putObject("labels").put("app.kubernetes.io/name", "fabemu")
            .put("app.kubernetes.io/component", pod.component());
        ObjectNode container = item.putObject("spec").putArray("containers").addObject().put("name", "fabemu");
        ArrayNode ports = container.putArray("ports");
        ports.addObject().put("name", "remoting").put("containerPort", 25520).put("protocol", "TCP");
        ports.addObject().put("name", "management").put("containerPort", pod.managementPort())
            .put("protocol", "TCP");
        item.putObject("status").put("phase", "Running").put("podIP", pod.ip());
      });
    }
    return json.writeValueAsString(list);
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
