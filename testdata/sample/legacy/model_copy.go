// Package cart holds the shopping cart and its checkout.
package cart

import (
	"errors"
	"fmt"
)

// ErrEmptyCart is returned when a cart without items is checked out.
var ErrEmptyCart = errors.New("cart: cart is empty")

// Item is one line of a cart.
type Item struct {
	SKU      string
	Name     string
	Quantity int
	// PriceCents is the unit price in cents.
	PriceCents int64
}

// Total returns the price of the line in cents.
func (i Item) Total() int64 { return int64(i.Quantity) * i.PriceCents }

// Cart is a customer's cart.
type Cart struct {
	ID       string
	Customer string
	Items    []Item
}

// Add puts an item into the cart, merging quantities of the same SKU.
func (c *Cart) Add(it Item) error {
	if it.Quantity <= 0 {
		return fmt.Errorf("cart: quantity %d for %s must be positive", it.Quantity, it.SKU)
	}
	for i := range c.Items {
		if c.Items[i].SKU == it.SKU {
			c.Items[i].Quantity += it.Quantity
			return nil
		}
	}
	c.Items = append(c.Items, it)
	return nil
}

// Subtotal is the sum of all lines in cents.
func (c *Cart) Subtotal() int64 {
	var sum int64
	for _, it := range c.Items {
		sum += it.Total()
	}
	return sum
}

// IsEmpty reports whether the cart has no items.
func (c *Cart) IsEmpty() bool { return len(c.Items) == 0 }
