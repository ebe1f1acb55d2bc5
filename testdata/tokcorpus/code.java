package com.example.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * In-memory order repository.
 * <p>It's thread-safe; don't rely on iteration order.</p>
 */
public final class OrderRepository {
    public record Order(UUID id, String customer, List<Line> lines, Instant createdAt) {
        public BigDecimal total() {
            return lines.stream().map(Line::subtotal).reduce(BigDecimal.ZERO, BigDecimal::add);
        }
    }

    public record Line(String sku, int qty, BigDecimal unitPrice) {
        public Line {
            if (qty <= 0) throw new IllegalArgumentException("qty must be > 0, got " + qty);
        }
        BigDecimal subtotal() { return unitPrice.multiply(BigDecimal.valueOf(qty)); }
    }

    private final Map<UUID, Order> orders = new ConcurrentHashMap<>();

    public Order save(String customer, List<Line> lines) {
        Objects.requireNonNull(customer, "customer");
        var order = new Order(UUID.randomUUID(), customer, List.copyOf(lines), Instant.now());
        orders.put(order.id(), order);
        return order;
    }

    public Optional<Order> find(UUID id) { return Optional.ofNullable(orders.get(id)); }

    public Map<String, BigDecimal> totalsByCustomer() {
        return orders.values().stream()
                .collect(Collectors.groupingBy(Order::customer, TreeMap::new,
                        Collectors.reducing(BigDecimal.ZERO, Order::total, BigDecimal::add)));
    }

    @Override
    public String toString() {
        return "OrderRepository{orders=" + orders.size() + "}";
    }

    public static void main(String[] args) throws Exception {
        var repo = new OrderRepository();
        repo.save("ACME GmbH", List.of(new Line("SKU-1", 2, new BigDecimal("9.99"))));
        System.out.printf("%s -> %s%n", repo, repo.totalsByCustomer());
    }
}
