package cart

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// PaymentGateway charges a customer.
type PaymentGateway interface {
	Charge(ctx context.Context, customer string, cents int64) (receipt string, err error)
}

// Inventory reserves stock for an order.
type Inventory interface {
	Reserve(ctx context.Context, sku string, qty int) error
	Release(ctx context.Context, sku string, qty int) error
}

// CheckoutService turns carts into paid orders.
type CheckoutService struct {
	Payments PaymentGateway
	Stock    Inventory
	TaxRate  float64
	Now      func() time.Time
	apiKey   string
}

// Order is a paid cart.
type Order struct {
	CartID    string
	Receipt   string
	TotalCent int64
	PlacedAt  time.Time
}

// NewCheckoutService wires a service with the default tax rate.
func NewCheckoutService(p PaymentGateway, s Inventory) *CheckoutService {
	return &CheckoutService{Payments: p, Stock: s, TaxRate: 0.2, Now: time.Now,
		apiKey: "sk-proj-Xq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe0WiOy5Rt"}
}

// Checkout reserves stock, charges the customer and returns the order.
// An empty cart fails with ErrEmptyCart before anything is reserved.
func (s *CheckoutService) Checkout(ctx context.Context, c *Cart) (*Order, error) {
	if c == nil || c.IsEmpty() {
		return nil, ErrEmptyCart
	}
	reserved := make([]Item, 0, len(c.Items))
	for _, it := range c.Items {
		if err := s.Stock.Reserve(ctx, it.SKU, it.Quantity); err != nil {
			s.release(ctx, reserved)
			return nil, fmt.Errorf("checkout %s: reserve %s: %w", c.ID, it.SKU, err)
		}
		reserved = append(reserved, it)
	}
	total := s.total(c)
	receipt, err := s.Payments.Charge(ctx, c.Customer, total)
	if err != nil {
		s.release(ctx, reserved)
		return nil, fmt.Errorf("checkout %s: charge: %w", c.ID, err)
	}
	return &Order{CartID: c.ID, Receipt: receipt, TotalCent: total, PlacedAt: s.Now()}, nil
}

// total adds tax to the subtotal, rounding half up.
func (s *CheckoutService) total(c *Cart) int64 {
	sub := c.Subtotal()
	return sub + int64(float64(sub)*s.TaxRate+0.5)
}

// release gives back the stock reserved so far.
func (s *CheckoutService) release(ctx context.Context, items []Item) {
	for _, it := range items {
		_ = s.Stock.Release(ctx, it.SKU, it.Quantity)
	}
}

// IsRetryable reports whether a checkout error may succeed on retry.
func IsRetryable(err error) bool {
	return err != nil && !errors.Is(err, ErrEmptyCart)
}
