package cart

import (
	"context"
	"errors"
	"testing"
)

type fakePayments struct{ charged int64 }

func (f *fakePayments) Charge(_ context.Context, _ string, cents int64) (string, error) {
	f.charged += cents
	return "rcpt-1", nil
}

type fakeStock struct{ reserved map[string]int }

func (f *fakeStock) Reserve(_ context.Context, sku string, qty int) error {
	if f.reserved == nil {
		f.reserved = map[string]int{}
	}
	f.reserved[sku] += qty
	return nil
}

func (f *fakeStock) Release(_ context.Context, sku string, qty int) error {
	f.reserved[sku] -= qty
	return nil
}

func TestCheckoutEmptyCart(t *testing.T) {
	s := NewCheckoutService(&fakePayments{}, &fakeStock{})
	_, err := s.Checkout(context.Background(), &Cart{ID: "c1"})
	if !errors.Is(err, ErrEmptyCart) {
		t.Fatalf("err = %v, want ErrEmptyCart", err)
	}
}

func TestCheckoutCharges(t *testing.T) {
	pay := &fakePayments{}
	s := NewCheckoutService(pay, &fakeStock{})
	c := &Cart{ID: "c2", Customer: "ada"}
	if err := c.Add(Item{SKU: "book", Quantity: 2, PriceCents: 1500}); err != nil {
		t.Fatal(err)
	}
	o, err := s.Checkout(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if o.TotalCent != 3600 || pay.charged != 3600 {
		t.Fatalf("total = %d, charged = %d, want 3600", o.TotalCent, pay.charged)
	}
}
